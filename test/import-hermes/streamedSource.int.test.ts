import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildImportPlan, openHermesSource, readSnapshot, type SessionImport } from '@session-ledger/import-hermes';
import { buildCurrentEra, buildV2Era, tempDir } from './fixtures/scenarios.js';

const ROOT = join(import.meta.dirname, 'fixtures', 'hermes');
const files = [
  ...readdirSync(ROOT).map((version) => [version, join(ROOT, version, 'state.db')] as const),
  ['hand-written current era', buildCurrentEra(join(tempDir(), 'state.db'))] as const,
  ['hand-written v2 era', buildV2Era(join(tempDir(), 'state.db'))] as const,
].map(([name, file]) => [name, typeof file === 'string' ? file : (file.close(), file.path)] as const);

const planned = (item: SessionImport) => ({ session: item.session, link: item.link, rootId: item.rootId, steps: item.steps });

describe.each(files)('%s read one lineage unit at a time', (_name, path) => {
  it('gives every session, row and plan step the whole-file read gives', () => {
    const whole = readSnapshot(path);
    const source = openHermesSource(path);
    try {
      expect([source.sessionCount, source.messageCount, source.schema]).toEqual([whole.sessions.length, whole.messageCount, whole.schema]);
      const units = [...source.units()];
      expect(units.reduce((n, unit) => n + unit.messageCount, 0)).toBe(whole.messageCount);
      const byUnits = units.flatMap((unit) => buildImportPlan(unit).sessions.map(planned));
      const byWhole = buildImportPlan(whole).sessions.map(planned);
      const order = (list: ReturnType<typeof planned>[]) => [...list].sort((a, b) => (a.session.id < b.session.id ? -1 : 1));
      expect(order(byUnits)).toEqual(order(byWhole));
      expect(source.orphans()).toEqual([]);
    } finally {
      source.close();
    }
  });
});

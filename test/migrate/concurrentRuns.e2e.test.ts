import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLedger, newId } from '@session-ledger/core';
import { LEASE_STREAM } from '@session-ledger/migrate';
import { runCliAsync as run, tempDir } from '../support/cli.js';
import { allEvents, comparable, liveEvents, populate, sqliteAt } from './fixture.js';

/** The tester's source: streams soft-deleted and then continued (a prefix rebuilt with stand-ins each), and enough events for a run of a few seconds. */
const populateGaps = async (path: string) => {
  const store = sqliteAt(path);
  await populate(store);
  const ledger = createLedger(store);
  for (let k = 0; k < 40; k += 1) {
    const stream = `gap-${k}`;
    for (let j = 0; j < 5; j += 1) await ledger.append(stream, [{ id: newId(), type: 'x', data: { j } }]);
    await store.deleteStream(stream, { expectedRevision: 4n });
    await ledger.append(stream, [{ id: newId(), type: 'after', data: { k } }]);
  }
  // About 10,000 events copied 5 a page: a run of a few seconds, so the two processes overlap whichever starts first.
  for (let k = 0; k < 200; k += 1) {
    await ledger.append(`bulk-${k % 4}`, Array.from({ length: 50 }, (_, n) => ({ id: newId(), type: 'turn.recorded', data: { n } })));
  }
  await store.close();
};

describe('two `migrate` processes into one SQLite target at once', () => {
  const dir = tempDir('sl-migrate-concurrent-');
  const source = join(dir, 'source.sqlite');
  beforeAll(() => populateGaps(source));

  it('one refuses with migration_running (one line, nothing written by it), the other completes; the target verifies and a third run exits 0', async () => {
    const target = join(dir, 'target.sqlite');
    const args = ['--json', 'migrate', '--from', `sqlite:${source}`, '--to', `sqlite:${target}`, '--page-size', '5'];
    const results = await Promise.all([run(args), run(args)]);
    const refused = results.filter((result) => result.code === 1);
    const done = results.filter((result) => result.code === 0);
    expect(results.map((result) => result.code).sort()).toEqual([0, 1]);
    expect(JSON.parse(done[0]!.stdout)).toMatchObject({ ok: true, complete: true, mismatches: [] });
    const { error } = JSON.parse(refused[0]!.stdout) as { error: { type: string; message: string; details: Record<string, unknown> } };
    expect(error).toMatchObject({ type: 'migration_running', details: { lost: false } });
    expect(error.message).toMatch(/^Another migrate run into this target is under way \(run [0-9a-f-]+, pid \d+ on /);
    expect(refused[0]!.stderr.trim().split('\n')).toEqual([`session-ledger: ${error.message}`]);

    const audit = await run(['--json', '--store', `sqlite:${target}`, 'audit', 'verify']);
    expect(audit.code).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject({ ok: true });
    const third = await run(args);
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout)).toMatchObject({ ok: true, mismatches: [] });

    const [from, to] = [sqliteAt(source), sqliteAt(target)];
    expect(comparable(await allEvents(to))).toEqual(comparable(await liveEvents(from)));
    expect((await allEvents(to)).filter((event) => event.streamName === LEASE_STREAM || event.type.startsWith('$'))).toEqual([]);
    await Promise.all([from.close(), to.close()]);
  });
});

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, newId } from '@session-ledger/core';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { runCliAsync as run, tempDir } from '../support/cli.js';

/**
 * An EventStoreDB stream continued by the ledger after a soft delete: EventStoreDB cannot tell the
 * ledger the deleted head, so the continuation's chain is broken in the source itself
 * (packages/store-eventstoredb/README.md). The copy carries it as it is and verifies.
 */
describe('migrate from a source whose hash chain is broken already (CLI)', () => {
  let server: EsdbTestServer;
  const dir = tempDir('sl-migrate-chain-');
  beforeAll(async () => {
    server = await startEsdbTestServer();
    const store = openEventStoreDbStore(server.url);
    const ledger = createLedger(store);
    for (let n = 0; n < 3; n += 1) await ledger.append('continued', [{ id: newId(), type: 'x', data: { n } }]);
    await store.deleteStream('continued', { expectedRevision: 2n });
    await ledger.append('continued', [{ id: newId(), type: 'x', data: { n: 3 } }]);
    await ledger.append('intact', [{ id: newId(), type: 'x', data: { n: 0 } }]);
    await store.close();
  });
  afterAll(() => server.close());

  it('succeeds, and says so: a warning line naming the stream, and sourceChainBreaks in --json', async () => {
    const text = await run(['migrate', '--from', server.url, '--to', `sqlite:${join(dir, `${newId()}.sqlite`)}`]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^warning continued: its hash chain breaks at revision 3 \(\w+\) in the source already; copied as it is$/m);
    expect(text.stdout).toContain('ok: every stream verified, 1 with a hash chain broken in the source');
    expect(text.stdout).not.toContain('warning intact');

    const json = await run(['migrate', '--from', server.url, '--to', `sqlite:${join(dir, `${newId()}.sqlite`)}`, '--json']);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as { ok: boolean; sourceChainBreaks: Array<{ stream: string; revision: unknown }> };
    expect(summary.ok).toBe(true);
    expect(summary.sourceChainBreaks).toEqual([expect.objectContaining({ stream: 'continued' })]);
    expect(String(summary.sourceChainBreaks[0]!.revision)).toBe('3');
  });
});

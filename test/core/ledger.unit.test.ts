import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, verifyStreamChain } from '@session-ledger/core';

describe('ledger hash chain', () => {
  it('links each event to its predecessor and verifies', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s-1', [{ id: newId(), type: 'a', data: { n: 1 } }], { expectedRevision: 'no_stream' });
    await ledger.append('s-1', [{ id: newId(), type: 'b', data: { n: 2 } }], { expectedRevision: 0n });
    await ledger.append('s-1', [{ id: newId(), type: 'c', data: { n: 3 } }]);
    const events = await ledger.store.readStream('s-1');
    expect(events.map((event) => event.metadata.prevHash)).toEqual([null, events[0]!.metadata.hash, events[1]!.metadata.hash]);
    expect(verifyStreamChain(events)).toBeNull();
    expect((await ledger.verify()).broken).toBeNull();
  });

  it('reports the first broken link when data is edited', async () => {
    const ledger = createLedger(createMemoryStore());
    await ledger.append('s-1', [1, 2, 3].map((n) => ({ id: newId(), type: 't', data: { n } })));
    const events = await ledger.store.readStream('s-1');
    events[1]!.data = { n: 20 };
    const broken = verifyStreamChain(events);
    expect(broken).toMatchObject({ stream: 's-1', revision: 1n, reason: 'hash' });
  });
});

import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, type EventStore, type NewEvent } from '@session-ledger/core';
import { storesOnTempFiles } from '../store-sqlite/tempLedger.js';

const said = (n: number): NewEvent => ({ id: newId(), type: 'said', data: { n } });
const idsOf = async (store: EventStore, stream: string) => (await store.readStream(stream, { maxCount: 10_000 })).map((event) => event.id);

/**
 * A raw append retried under expectedRevision 'any' with the same ids is a no-op however many events
 * landed in the stream since (more than the 64 newest the ledger reads first): the store's id index
 * answers where it has one. Before it, the retry was stored a second time.
 */
describe("a raw 'any' retry far behind the stream's head", () => {
  const sqlite = storesOnTempFiles('retry-any');
  const stores: Array<[string, () => { first: EventStore; second: EventStore }]> = [
    ['memory', () => { const store = createMemoryStore(); return { first: store, second: store }; }],
    ['SQLite, the retry by a second connection', () => { const { store, file } = sqlite(); return { first: store, second: sqlite(file).store }; }],
  ];

  describe.each(stores)('%s', (_name, open) => {
    it('Given an event and 300 others after it, When it is appended again, Then nothing is written and its revision is answered', async () => {
      const { first, second } = open();
      const original = said(0);
      await createLedger(first).append('chat', [original]);
      for (let n = 1; n <= 300; n += 1) await createLedger(first).append('chat', [said(n)]);
      const retry = await createLedger(second).append('chat', [original]);
      expect(retry).toMatchObject({ written: false, nextExpectedRevision: 0n });
      expect((await idsOf(second, 'chat')).filter((id) => id === original.id)).toHaveLength(1);
    });

    it('When the same id comes with other content, or a batch overlaps it only in part, Then it is refused and nothing is stored', async () => {
      const { first, second } = open();
      const original = said(0);
      await createLedger(first).append('chat', [original]);
      for (let n = 1; n <= 100; n += 1) await createLedger(first).append('chat', [said(n)]);
      const ledger = createLedger(second);
      await expect(ledger.append('chat', [{ ...original, data: { n: 'other' } }])).rejects.toMatchObject({ type: 'duplicate' });
      await expect(ledger.append('chat', [original, said(101)])).rejects.toMatchObject({ type: 'wrong_expected_version' });
      expect(await idsOf(second, 'chat')).toHaveLength(101);
    });

    it('Given the event was soft-deleted with its stream, When its id is appended again, Then it is a new event', async () => {
      const { first, second } = open();
      const original = said(0);
      const ledger = createLedger(first);
      await ledger.append('chat', [original]);
      for (let n = 1; n <= 100; n += 1) await ledger.append('chat', [said(n)]);
      await first.deleteStream('chat', { expectedRevision: 100n });
      for (let n = 101; n <= 200; n += 1) await ledger.append('chat', [said(n)]);
      expect(await createLedger(second).append('chat', [original])).toMatchObject({ written: true, nextExpectedRevision: 201n });
    });
  });
});

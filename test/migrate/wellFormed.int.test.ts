import { describe, expect, it } from 'vitest';
import { createMemoryStore, newId, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { migrateStores } from '@session-ledger/migrate';

/** A source that holds a lone surrogate, as an older store (or an EventStoreDB written before the check) can. */
const poisonedSource = async (): Promise<EventStore> => {
  const inner = createMemoryStore();
  await inner.appendToStream('orders', [1, 2, 3].map((n) => ({ id: newId(), type: 'placed', data: { n, text: 'fine' } })));
  await inner.appendToStream('kept', [{ id: newId(), type: 'placed', data: { text: 'fine' } }]);
  const poison = (events: RecordedEvent[]) =>
    events.map((event) => (event.streamName === 'orders' && event.revision === 1n ? { ...event, data: { n: 2, text: 'bad \ud800' } } : event));
  return { ...inner, name: 'poisoned', readAll: async (options) => poison(await inner.readAll(options)), readStream: async (stream, options) => poison(await inner.readStream(stream, options)) };
};

describe('migrating an event that holds a lone surrogate', () => {
  it('reports the stream as refused by the target, naming the revisions, copies the rest, and writes nothing repaired', async () => {
    const to = createMemoryStore();
    const summary = await migrateStores({ from: await poisonedSource(), to });
    expect(summary.ok).toBe(false);
    expect(summary.mismatches).toHaveLength(1);
    expect(summary.mismatches[0]).toMatchObject({ stream: 'orders', target: 'refused' });
    expect(summary.mismatches[0]!.reason).toContain('the target refused revisions 0..2');
    expect(summary.mismatches[0]!.reason).toContain('not well-formed UTF-16 (a lone surrogate)');
    expect((await to.readStream('kept')).map((event) => event.data)).toEqual([{ text: 'fine' }]);
    await expect(to.readStream('orders')).rejects.toMatchObject({ type: 'stream_not_found' });
  });
});

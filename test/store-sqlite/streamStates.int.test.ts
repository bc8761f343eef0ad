import { describe, expect, it } from 'vitest';
import { isLedgerError, newId, type EventData } from '@session-ledger/core';
import { storesOnTempFiles } from './tempLedger.js';

const events = (count: number): EventData[] => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'written', data: { n } }));
const refusal = (promise: Promise<unknown>) => promise.then(() => 'appended', (error: unknown) => (isLedgerError(error) ? error.type : String(error)));

/**
 * The stream states an append decides on are kept across this connection's appends (streamStates.ts):
 * each case below gives a wrong decision (a conflict where the stream allows the append, or an
 * append where it does not) if the kept state outlives what it describes.
 */
describe('SQLite store: the stream states kept between appends', () => {
  const open = storesOnTempFiles('states');

  it('are read again after another connection appended to the stream', async () => {
    const { store: first, file } = open();
    const { store: second } = open(file);
    await first.appendToStream('s', events(1), { expectedRevision: 'no_stream' });
    await second.appendToStream('s', events(1), { expectedRevision: 0n });
    expect(await refusal(first.appendToStream('s', events(1), { expectedRevision: 0n }))).toBe('wrong_expected_version');
    expect(await refusal(first.appendToStream('s', events(1), { expectedRevision: 'no_stream' }))).toBe('wrong_expected_version');
    expect((await first.appendToStream('s', events(1), { expectedRevision: 1n })).nextExpectedRevision).toBe(2n);
    expect((await first.appendToStream('s', events(1))).nextExpectedRevision).toBe(3n);
  });

  it('are dropped when a group rolls back, so the appends run again decide on what is stored', async () => {
    const { store } = open();
    // The second append is refused inside the group's transaction: the group rolls back and runs
    // again with a savepoint per append, and the first must not find the stream it wrote before the rollback.
    const outcomes = await Promise.all([
      refusal(store.appendToStream('s', events(1), { expectedRevision: 'no_stream' })),
      refusal(store.appendToStream('t', events(1), { expectedRevision: 5n })),
    ]);
    expect(outcomes).toEqual(['appended', 'wrong_expected_version']);
    expect((await store.readStream('s')).map((event) => event.revision)).toEqual([0n]);
  });

  it('are dropped by a delete: a soft-deleted stream takes a new first event, a tombstoned one none', async () => {
    const { store } = open();
    await store.appendToStream('s', events(2), { expectedRevision: 'no_stream' });
    await store.deleteStream('s', { expectedRevision: 1n });
    expect((await store.appendToStream('s', events(1), { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(2n);
    await store.tombstoneStream('s', { expectedRevision: 2n });
    expect(await refusal(store.appendToStream('s', events(1), { expectedRevision: 'any' }))).toBe('stream_deleted');
    expect(await refusal(store.appendToStream('s', events(1), { expectedRevision: 2n }))).toBe('stream_deleted');
  });

  it('follow another connection deleting the stream', async () => {
    const { store: first, file } = open();
    const { store: second } = open(file);
    await first.appendToStream('s', events(1), { expectedRevision: 'no_stream' });
    await second.tombstoneStream('s', { expectedRevision: 0n });
    expect(await refusal(first.appendToStream('s', events(1), { expectedRevision: 0n }))).toBe('stream_deleted');
    await first.appendToStream('t', events(1), { expectedRevision: 'no_stream' });
    await second.deleteStream('t', { expectedRevision: 0n });
    expect((await first.appendToStream('t', events(1), { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(1n);
    expect((await first.readStream('t')).map((event) => event.revision)).toEqual([1n]);
  });

  it('refuses bad input with a rejected promise, never a synchronous throw (appendToStream is not an async function)', async () => {
    const { store } = open();
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = store.appendToStream('s', [{ id: 'not-a-uuid', type: 't', data: {} }]))).not.toThrow();
    expect(await refusal(pending!)).toBe('invalid_input');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => (pending = store.appendToStream('s', [{ id: newId(), type: 't', data: cyclic as never }]))).not.toThrow();
    expect(await refusal(pending!)).not.toBe('appended'); // as before: the well-formedness walk overflows its stack
    expect(await store.readAll()).toEqual([]);
  });
});

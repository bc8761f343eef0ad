import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainHash, createLedger, hashOf, newId, readAllPages, readLivePages, type EventStore, type JsonObject, type RecordedEvent } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';

export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-migrate-'));
  return { path: (name: string) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
};

export const sqliteAt = (path: string): EventStore => openSqliteStore(path);

const turn = (n: number) => ({ id: newId(), type: 'turn.recorded', data: { n, text: `turn ${n}` }, metadata: { actor: 'test' } });

/**
 * Appends after a soft delete with the chain continued from the deleted head, as the events had
 * been sealed before the delete. (The Ledger itself re-anchors a soft-deleted stream at revision
 * 0, which does not match the revision the store then gives; see the report.)
 */
export const appendAfterDelete = async (store: EventStore, stream: string, head: RecordedEvent, count: number) => {
  let prev = hashOf(head);
  let revision = head.revision + 1n;
  const events = Array.from({ length: count }, (_, n) => {
    const event = turn(10 + n);
    const metadata: JsonObject = { ...event.metadata, prevHash: prev };
    const hash = chainHash({ stream, revision, id: event.id, type: event.type, data: event.data, metadata });
    prev = hash;
    revision += 1n;
    return { ...event, metadata: { ...metadata, hash } };
  });
  await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
};

/**
 * A source with what a real ledger holds: interleaved hash-chained streams, a stream soft-deleted
 * and then continued, one soft-deleted for good, one tombstoned.
 */
export const populate = async (store: EventStore) => {
  const ledger = createLedger(store);
  for (let round = 0; round < 6; round += 1) {
    for (const stream of ['session-a', 'session-b', 'memory-default']) await ledger.append(stream, [turn(round), turn(round + 100)]);
  }
  await ledger.append('session-continued', [turn(1), turn(2), turn(3)]);
  const [head] = await store.readStream('session-continued', { direction: 'backwards', maxCount: 1 });
  await store.deleteStream('session-continued', { expectedRevision: 2n });
  await appendAfterDelete(store, 'session-continued', head!, 2);
  await ledger.append('session-gone', [turn(1), turn(2)]);
  await store.deleteStream('session-gone', { expectedRevision: 1n });
  await ledger.append('session-erased', [turn(1)]);
  await store.tombstoneStream('session-erased', { expectedRevision: 0n });
  await ledger.append('session-a', [turn(7)]);
};

export const LIVE_STREAMS = ['session-a', 'session-b', 'memory-default', 'session-continued'];

export const allEvents = async (store: EventStore): Promise<RecordedEvent[]> => {
  const out: RecordedEvent[] = [];
  for await (const page of readAllPages(store, 'start', 100)) out.push(...page);
  return out;
};

/** The events of $all still their stream's (EventStoreDB's $all also holds deleted streams' events until a scavenge). */
export const liveEvents = async (store: EventStore): Promise<RecordedEvent[]> => {
  const out: RecordedEvent[] = [];
  for await (const page of readLivePages(store)) out.push(...page);
  return out;
};

/** What must survive a copy: everything but positions and commit times. */
export const comparable = (events: RecordedEvent[]) =>
  events.map(({ streamName, id, type, revision, data, metadata }) => ({ streamName, id, type, revision, data, metadata }));

export const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { type?: string }) => error.type ?? String(error),
  );

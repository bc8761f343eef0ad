import { describe, expect, it } from 'vitest';
import { createLedger, readWholeStream, verifyLog, type EventStore } from '@session-ledger/core';
import { AUDIT_STREAM, pendingIntents, pruneSessions, type PruneResult } from '@session-ledger/retention';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { STORES, wrapStore, writerOn } from './helpers.js';

const SESSIONS = 12;
const DAY = 86_400_000;

/** The store of the first prune: `onTombstone` runs once, after its first tombstone. */
const firstTombstoneThen = (store: EventStore, onTombstone: () => void): EventStore => {
  let fired = false;
  return wrapStore(store, {
    tombstoneStream: async (stream, options) => {
      const result = await store.tombstoneStream(stream, options);
      if (!fired) {
        fired = true;
        onTombstone();
      }
      return result;
    },
  });
};

const ids = () => Array.from({ length: SESSIONS }, (_, index) => `idle-${index}`);

/**
 * Two `sessions prune` runs on one ledger at once (two processes on one file): each conversation is
 * deleted once and counted deleted by one run only, and the other run reports it as already deleted, never as a failure; an intent the
 * other run is still working on may be finished by this one, and its outcome is recorded once.
 */
describe.each(STORES.filter(([name]) => name !== 'eventstoredb'))('two prunes at once (%s)', (_name, open) => {
  it.each(['together', 'the second after the first one’s first tombstone'] as const)('started %s: no failure, every conversation deleted, every intent closed, the log verifies', async (start) => {
    const { context, store, advance, now } = writerOn(open());
    for (const id of ids()) {
      await startSession(context, { id });
      await appendMessage(context, id, { role: 'user', content: `old conversation ${id}` });
    }
    advance(40 * DAY);
    const options = { olderThanMs: DAY, now: now() };
    // On SQLite the second run has a connection of its own to the file, as a second process would.
    const other = store.name.startsWith('sqlite:') ? openSqliteStore(store.name.slice('sqlite:'.length)) : store;
    let second!: Promise<PruneResult>;
    const startSecond = () => (second = pruneSessions(createLedger(other), options));
    const first = pruneSessions(createLedger(start === 'together' ? store : firstTombstoneThen(store, startSecond)), options);
    if (start === 'together') startSecond();
    const results = [await first, await second];
    if (other !== store) await other.close();

    for (const result of results) expect(result.failed).toEqual([]);
    const deleted = new Set(results.flatMap((result) => result.deleted));
    expect([...deleted].sort()).toEqual(ids().sort());
    // Each conversation is counted deleted by one run only: the one whose outcome record stands.
    expect(results[0]!.deleted.length + results[1]!.deleted.length).toBe(SESSIONS);
    for (const result of results) for (const id of result.already_deleted) expect(deleted).toContain(id);
    expect(await pendingIntents(store)).toEqual([]);
    const outcomes = (await readWholeStream(store, AUDIT_STREAM)).filter((event) => event.type === 'retention.deleted');
    const intents = outcomes.map((event) => (event.data as { intent: string }).intent);
    expect(new Set(intents).size).toBe(intents.length);
    if (store.log) expect((await verifyLog(store)).ok).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { createLedger, readWholeStream, type EventStore } from '@session-ledger/core';
import { AUDIT_STREAM, deleteSession, deleteSessions, pendingIntents } from '@session-ledger/retention';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { gate, STORES, wrapStore, writerOn } from './helpers.js';


/**
 * A run whose first audit append (its intent) waits until `go` opens, after `reached` opened: it has
 * read the pending intents by then. `killed`: it dies at its first tombstone (kill -9 there).
 */
const pausedRun = (store: EventStore, killed: boolean) => {
  const reached = gate();
  const go = gate();
  let first = true;
  const paused = wrapStore(store, {
    appendToStream: async (stream, events, options) => {
      if (stream === AUDIT_STREAM && first) {
        first = false;
        reached.open();
        await go.opened;
      }
      return store.appendToStream(stream, events, options);
    },
    ...(killed ? { tombstoneStream: async () => Promise.reject(new Error('killed')) } : {}),
  });
  return { ledger: createLedger(paused), reached, go };
};

/**
 * Two deletions of one conversation at once, each having read the pending intents before the other
 * recorded its own: one is killed after recording its intent, the other finishes. Completing the
 * killed run's intent later deleted nothing of its own, yet reported the conversation deleted again
 * and recorded a second outcome (outside test, session 16: `racedel.sh`, and two CLI prunes with
 * one killed, 1 of 10).
 */
describe.each(STORES)('an intent superseded by another run\'s deletion (%s)', (_name, open) => {
  it('is closed as abandoned, the conversation counted already deleted, and its outcome recorded once', async () => {
    const { context, store, now } = writerOn(open());
    await startSession(context, { id: 'c' });
    await appendMessage(context, 'c', { role: 'user', content: 'to be deleted' });
    const killedRun = pausedRun(store, true);
    const finishingRun = pausedRun(store, false);
    const killed = deleteSession(killedRun.ledger, 'c', { now: now() });
    const finishing = deleteSession(finishingRun.ledger, 'c', { now: now() });
    await Promise.all([killedRun.reached.opened, finishingRun.reached.opened]); // neither saw the other's intent
    killedRun.go.open();
    await expect(killed).rejects.toThrow('killed');
    finishingRun.go.open();
    expect((await finishing).deleted).toEqual(['session-c']);
    expect(await pendingIntents(store)).toHaveLength(1); // the killed run's

    const again = await deleteSessions(createLedger(store), ['c'], { now: now() });

    expect(again).toMatchObject({ deleted: [], already_deleted: ['c'], failed: [] });
    expect(await pendingIntents(store)).toEqual([]);
    const audit = await readWholeStream(store, AUDIT_STREAM);
    expect(audit.filter((event) => event.type === 'retention.deleted').map((event) => (event.data as { deleted: string[] }).deleted)).toEqual([['session-c']]);
    expect(audit.filter((event) => event.type === 'retention.deletion_abandoned')).toHaveLength(1);
  });
});

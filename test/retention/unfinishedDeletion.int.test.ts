import { describe, expect, it } from 'vitest';
import { createLedger, type EventStore } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { deleteSession, pendingIntents, reviewDeletion } from '@session-ledger/retention';
import { buildConversation, COVERED, killedAfter, STORES, writerOn } from './helpers.js';

const ONCE = { attempts: 1, baseDelayMs: 1 };

const stored = async (store: EventStore, streams: string[]) => {
  const out: string[] = [];
  for (const stream of streams) if (await store.readStream(stream).then(() => true, () => false)) out.push(stream);
  return out;
};

/**
 * A deletion killed after recording its intent is finished by the next DELETE of the conversation.
 * With an If-Match, that DELETE finishes it only when the If-Match names it, as the review shows it:
 * before, a DELETE of the tip alone (lineage tip) fenced by the tip's own ETag finished a killed
 * deletion of the whole conversation and destroyed the root, a stream its ETag never named (outside
 * test, session 24).
 */
describe.each(STORES)('an unfinished deletion is reviewed and fenced like any other (%s)', (_name, open) => {
  it('Given a killed deletion of the whole conversation, a DELETE of the tip fenced by the tip alone is refused and deletes nothing', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const seenBefore = await reviewDeletion(store, 'root-2', { lineage: 'tip' });
    expect(seenBefore.streams.map((s) => s.sessionId)).toEqual(['root-2']);

    await expect(deleteSession(createLedger(killedAfter(store, 0)), 'root', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });
    const ledger = createLedger(store);

    await expect(deleteSession(ledger, 'root-2', { lineage: 'tip', ifMatch: seenBefore.etag, now: now() })).rejects.toMatchObject({
      type: 'precondition_failed',
      message: expect.stringContaining('unfinished deletion'),
    });
    expect(await stored(store, COVERED)).toEqual(COVERED);
    expect(await pendingIntents(store)).toHaveLength(1);
  });

  it('the review shows the unfinished deletion (every stream it tombstones) and its ETag finishes exactly that', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    await expect(deleteSession(createLedger(killedAfter(store, 1)), 'root', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });

    const review = await reviewDeletion(store, 'root-2', { lineage: 'tip' });
    expect(review.unfinished).toEqual([{ intent: (await pendingIntents(store))[0]!.id, at: expect.any(String), reason: 'delete', requestedId: 'root' }]);
    expect(review).toMatchObject({ rootId: 'root', lineage: 'logical' });
    expect(review.streams.map((s) => s.sessionId).sort()).toEqual(['root', 'root-2', 'sub', 'subsub']);
    expect(review.streams.find((s) => s.sessionId === 'sub')).toMatchObject({ rootId: 'sub', link: 'delegation', depth: 1 });
    // the segment already tombstoned is reviewed too: the review of it is the unfinished deletion, not a 410
    expect((await reviewDeletion(store, 'subsub')).etag).toBe(review.etag);

    const result = await deleteSession(createLedger(store), 'root-2', { lineage: 'tip', ifMatch: review.etag, now: now() });
    expect(result.deleted).toEqual(['session-subsub', 'session-sub', 'session-root-2', 'session-root']);
    expect(await stored(store, [...COVERED, 'session-br'])).toEqual(['session-br']);
  });

  it('a stream written after the kill: the unfinished ETag is refused (412, nothing more deleted); the review read again deletes the rest at once', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    await expect(deleteSession(createLedger(killedAfter(store, 2)), 'root', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });
    const unfinished = await reviewDeletion(store, 'root');
    await appendMessage(context, 'root-2', { role: 'user', content: 'arrived after the kill' });
    const ledger = createLedger(store);

    await expect(deleteSession(ledger, 'root', { ifMatch: unfinished.etag, now: now() })).rejects.toMatchObject({ type: 'precondition_failed' });
    expect(await stored(store, COVERED)).toEqual(['session-root', 'session-root-2']);

    const fresh = await reviewDeletion(store, 'root');
    expect(fresh.unfinished).toEqual([]);
    expect(fresh.streams.map((s) => s.sessionId)).toEqual(['root', 'root-2']);
    const tipAt = (review: typeof fresh) => review.streams.find((s) => s.sessionId === 'root-2')!.revision;
    expect(tipAt(fresh)).toBe(tipAt(unfinished) + 1n);
    // before, the first DELETE after the kill answered partial_deletion ("delete again") whatever its If-Match
    expect((await deleteSession(ledger, 'root', { ifMatch: fresh.etag, now: now() })).deleted).toEqual(['session-root-2', 'session-root']);
  });
});

describe.each(STORES)('an unfinished deletion is finished only by a deletion of its own conversation (%s)', (_name, open) => {
  it('a delegated child asked for without If-Match (the CLI) is refused, naming the parent; the parent asked for finishes it (outside test, session 24)', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    await expect(deleteSession(createLedger(killedAfter(store, 0)), 'root', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });
    const ledger = createLedger(store);

    // before, `sessions delete sub --lineage tip` finished root's deletion and destroyed root, root-2 and subsub
    for (const ifMatch of [undefined, '*']) {
      await expect(deleteSession(ledger, 'sub', { lineage: 'tip', ifMatch, now: now() })).rejects.toMatchObject({
        type: 'precondition_failed',
        message: expect.stringContaining('unfinished deletion of root'),
      });
    }
    expect(await stored(store, COVERED)).toEqual(COVERED);
    // a segment of the same conversation finishes it
    expect((await deleteSession(ledger, 'root-2', { now: now() })).deleted).toEqual(['session-subsub', 'session-sub', 'session-root-2', 'session-root']);
  });
});

describe.each(STORES)('two unfinished deletions of one conversation (%s)', (_name, open) => {
  it('finished as far as they can be, the refusal says what went and what was kept, not session_deleted (outside test, session 24)', async () => {
    const { context, store, now } = writerOn(open());
    await startSession(context, { id: 'p' });
    await appendMessage(context, 'p', { role: 'user', content: 'the parent' });
    await startSession(context, { id: 'c', parentId: 'p', link: 'delegation' });
    await startSession(context, { id: 'cc', parentId: 'c', link: 'delegation' });
    await expect(deleteSession(createLedger(killedAfter(store, 0)), 'c', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });
    await appendMessage(context, 'p', { role: 'user', content: 'between the kills' });
    await expect(deleteSession(createLedger(killedAfter(store, 0)), 'p', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });
    await appendMessage(context, 'p', { role: 'user', content: 'after both kills' });
    const review = await reviewDeletion(store, 'c');
    expect(review.unfinished).toHaveLength(2);

    const refusal = await deleteSession(createLedger(store), 'c', { ifMatch: review.etag, now: now() }).then(() => null, (error: unknown) => error);

    expect(refusal).toMatchObject({ type: 'partial_deletion', details: { kept: ['session-p'] } });
    expect(await stored(store, ['session-p', 'session-c', 'session-cc'])).toEqual(['session-p']);
    expect(await pendingIntents(store)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { sessionStream } from '@session-ledger/events';
import { appendMessage, beginTurn, compressSession, endSession, listConversations, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

describe.each(STORES)('deleted and ended sessions (%s)', (name, open) => {
  it('an append to a tombstoned session raises session_deleted and never recreates it', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    const { revision } = await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'secret' });
    await store.tombstoneStream(sessionStream('s'));

    await expect(appendMessage(context, 's', { role: 'user', content: 'late flush' }, { expectedRevision: revision })).rejects.toMatchObject({
      type: 'session_deleted',
      details: { sessionId: 's' },
    });
    await expect(appendMessage(context, 's', { role: 'user', content: 'late flush' })).rejects.toMatchObject({ type: 'session_deleted' });
    await expect(startSession(context, { id: 's' })).rejects.toMatchObject({ type: 'session_deleted' });
    await expect(loadConversation(store, 's')).rejects.toMatchObject({ type: 'session_deleted' });
    await expect(store.readStream(sessionStream('s'))).rejects.toMatchObject({ type: 'stream_deleted' });
  });

  // EventStoreDB keeps the deleted events in $all until a scavenge; the list and the audit must not show them as live.
  it('a tombstoned or soft-deleted session leaves sessions list, and the audit verifies the rest', async () => {
    const { context, store, ledger } = writerOn(open());
    for (const id of ['kept', 'hard', 'soft']) {
      await startSession(context, { id });
      await appendMessage(context, id, { id: 'm1', role: 'user', content: `in ${id}` });
    }
    await store.tombstoneStream(sessionStream('hard'));
    await store.deleteStream(sessionStream('soft'));

    expect((await listConversations(store, { now: context.now() })).map((row) => row.rootId)).toEqual(['kept']);
    const report = await ledger.verify();
    expect(report).toMatchObject({ streams: 1, events: 2, broken: null });
    expect(report.deletedInAll ?? 0).toBe(name === 'eventstoredb' ? 4 : 0);
  });

  it('an unknown session is not_found, and a bad id is invalid_input', async () => {
    const { context, store } = writerOn(open());

    await expect(appendMessage(context, 'nobody', { role: 'user', content: 'x' })).rejects.toMatchObject({ type: 'not_found' });
    await expect(appendMessage(context, 'nobody', { role: 'user', content: 'x' }, { expectedRevision: 0n })).rejects.toMatchObject({ type: 'not_found' });
    await expect(loadConversation(store, 'nobody')).rejects.toMatchObject({ type: 'not_found' });
    await expect(loadConversation(store, '../etc/passwd')).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(startSession(context, { id: 'has space' })).rejects.toMatchObject({ type: 'invalid_input' });
  });

  it('after the end, writes are refused with session_ended; ending twice is a no-op, for another reason a duplicate', async () => {
    const { context } = writerOn(open());
    await startSession(context, { id: 's' });
    const ended = await endSession(context, 's', { reason: 'user quit' });

    await expect(appendMessage(context, 's', { role: 'user', content: 'x' })).rejects.toMatchObject({ type: 'session_ended' });
    await expect(appendMessage(context, 's', { role: 'user', content: 'x' }, { expectedRevision: ended.revision })).rejects.toMatchObject({
      type: 'session_ended',
    });
    await expect(beginTurn(context, 's', { ttlMs: 1000 })).rejects.toMatchObject({ type: 'session_ended' });
    await expect(compressSession(context, 's', { summary: 'S' })).rejects.toMatchObject({ type: 'session_ended' });
    expect(await endSession(context, 's')).toMatchObject({ written: false, revision: ended.revision });
    expect(await endSession(context, 's', { reason: 'user quit' })).toMatchObject({ written: false, revision: ended.revision });
    // Another reason would be acknowledged and never stored (outside test, session 21).
    await expect(endSession(context, 's', { reason: 'crashed' })).rejects.toMatchObject({ type: 'duplicate', message: 'session s has ended already for the reason "user quit"' });
  });
});

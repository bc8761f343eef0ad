import { describe, expect, it } from 'vitest';
import { appendMessage, compressSession, endSession, listConversations, loadConversation, reopenSession, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

/**
 * A harness resumes an ended conversation (Hermes' `hermes --resume` reopens a session its CLI ended
 * on exit): the ledger had no way to take writes after an end, so the import of every resumed Hermes
 * session was skipped for good (outside test, session 30).
 */
describe.each(STORES)('reopening an ended session (%s)', (_name, open) => {
  it('takes writes again, ends again as an event of its own, and every end and reopen stays in the views', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await appendMessage(context, 's', { role: 'user', content: 'before' });
    await endSession(context, 's', { reason: 'user_exit' });
    await expect(appendMessage(context, 's', { role: 'user', content: 'x' })).rejects.toMatchObject({ type: 'session_ended' });

    const reopened = await reopenSession(context, 's');
    expect(reopened).toMatchObject({ written: true });
    expect(await reopenSession(context, 's')).toMatchObject({ written: false, revision: reopened.revision });
    await appendMessage(context, 's', { role: 'user', content: 'after' });
    expect((await listConversations(store, { now: context.now() }))[0]).toMatchObject({ ended: false });

    // A second end, with another reason, is stored (its id is its own, not the first end's retry)...
    expect(await endSession(context, 's', { reason: 'cli_close' })).toMatchObject({ written: true });
    expect((await listConversations(store, { now: context.now() }))[0]).toMatchObject({ ended: true });
    // ...and so is a second reopen.
    expect(await reopenSession(context, 's')).toMatchObject({ written: true });

    const raw = await loadConversation(store, 's', { view: 'raw' });
    expect(raw.events.map((e) => e.type)).toEqual(['session.started', 'message.appended', 'session.ended', 'session.reopened', 'message.appended', 'session.ended', 'session.reopened']);
    expect(new Set(raw.events.map((e) => e.id)).size).toBe(raw.events.length);
    const display = await loadConversation(store, 's', { view: 'display' });
    expect(display.markers.map((m) => [m.kind, m.index])).toEqual([['ended', 1], ['reopened', 1], ['ended', 2], ['reopened', 2]]);
    expect((await loadConversation(store, 's', { view: 'active' })).messages.map((m) => m.content)).toEqual(['before', 'after']);
  });

  it('a compressed segment is sealed: reopen its tip; an unknown session is not_found', async () => {
    const { context } = writerOn(open());
    await startSession(context, { id: 's' });
    const { sessionId: tip } = await compressSession(context, 's', { summary: 'S' });
    await expect(reopenSession(context, 's')).rejects.toMatchObject({ type: 'session_sealed', details: { tipId: tip } });
    await expect(reopenSession(context, 'nobody')).rejects.toMatchObject({ type: 'not_found' });
    expect(await reopenSession(context, tip)).toMatchObject({ written: false });
  });
});

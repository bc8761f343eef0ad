import { describe, expect, it } from 'vitest';
import { deleteSession } from '@session-ledger/retention';
import { appendMessage, compressSession, conversationEtag, viewEtag, listConversations, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

const ids = (view: { messages: Array<{ id: string }> }) => view.messages.map((message) => message.id);

describe.each(STORES)('a conversation started by a reset (%s)', (_name, open) => {
  const thread = async () => {
    const w = writerOn(open());
    await startSession(w.context, { id: 'old' });
    await appendMessage(w.context, 'old', { id: 'o1', role: 'user', content: 'first question' });
    await appendMessage(w.context, 'old', { id: 'o2', role: 'assistant', content: 'first answer' });
    await compressSession(w.context, 'old', { summary: 'the first question', childId: 'old2' });
    await appendMessage(w.context, 'old2', { id: 'o3', role: 'user', content: 'second question' });
    const reset = await startSession(w.context, { id: 'new', parentId: 'old', link: 'reset' });
    await appendMessage(w.context, 'new', { id: 'n1', role: 'user', content: 'a fresh start' });
    return { ...w, reset };
  };

  it('shows the conversation it reset above its own messages, while the model starts afresh', async () => {
    const { store, reset } = await thread();

    const display = await loadConversation(store, 'new');
    const active = await loadConversation(store, 'new', { view: 'active' });

    expect(reset).toMatchObject({ rootId: 'new', parentId: 'old2' });
    expect(ids(display)).toEqual(['o1', 'o2', 'o3', 'n1']);
    expect([display.rootId, display.tipId, display.segments.map((s) => s.sessionId)]).toEqual(['new', 'new', ['new']]);
    expect(display.earlier).toEqual({ messages: 3, segments: [expect.objectContaining({ sessionId: 'old' }), expect.objectContaining({ sessionId: 'old2' })] });
    expect(active.messages.map((item) => (item.kind === 'message' ? item.id : item.kind))).toEqual(['n1']);
  });

  it('leaves the conversation it reset as it was, with the reset marked where it happened', async () => {
    const { store } = await thread();

    const old = await loadConversation(store, 'old');

    expect(ids(old)).toEqual(['o1', 'o2', 'o3']);
    expect(old.earlier).toBeUndefined();
    expect(old.markers.filter((marker) => marker.kind === 'child')).toEqual([expect.objectContaining({ childId: 'new', link: 'reset', index: 3 })]);
    expect((await listConversations(store)).map((row) => [row.rootId, row.parentId, row.link]).sort()).toEqual([
      ['new', 'old2', 'reset'],
      ['old', null, null],
    ]);
  });

  it('once the earlier conversation is deleted, shows only its own messages, under another ETag', async () => {
    const { store, ledger } = await thread();
    const before = await loadConversation(store, 'new');

    await deleteSession(ledger, 'old');
    const after = await loadConversation(store, 'new');

    expect(ids(after)).toEqual(['n1']);
    expect(after.earlier).toBeUndefined();
    expect(viewEtag(after)).not.toBe(viewEtag(before));
    expect(conversationEtag(after.segments)).toBe(conversationEtag(before.segments));
  });

  it('is deleted on the ETag its display was read with, and refused on a stale one; the earlier conversation stays', async () => {
    const { store, ledger, context } = await thread();
    const seen = viewEtag(await loadConversation(store, 'new'));
    await appendMessage(context, 'new', { id: 'n2', role: 'assistant', content: 'an answer' });

    await expect(deleteSession(ledger, 'new', { ifMatch: seen })).rejects.toMatchObject({ type: 'precondition_failed' });
    const current = viewEtag(await loadConversation(store, 'new'));
    await deleteSession(ledger, 'new', { ifMatch: current });

    await expect(loadConversation(store, 'new')).rejects.toMatchObject({ type: 'session_deleted' });
    expect(ids(await loadConversation(store, 'old'))).toEqual(['o1', 'o2', 'o3']);
  });
});

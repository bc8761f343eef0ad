import { describe, expect, it } from 'vitest';
import { appendMessages, compressSession, listConversations, loadConversation, renderTranscript, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

/** Seed 002: a root and 4 compressions; only a later segment received messages; the root id must resume everything. */
describe.each(STORES)('resume by any id after 4 compressions (%s)', (_name, open) => {
  const build = async () => {
    const { context, store } = writerOn(open());
    const { sessionId: rootId } = await startSession(context, { id: '20260424_143733_1abb38', title: 'long chat' });
    const ids = [rootId];
    for (let i = 0; i < 3; i += 1) ids.push((await compressSession(context, ids[ids.length - 1]!, { summary: `summary ${i}` })).sessionId);
    await appendMessages(context, ids[3]!, [
      { id: 'u1', role: 'user', content: 'inspect the page' },
      { id: 'a1', role: 'assistant', content: null, toolCalls: [{ id: 'c1', type: 'function', function: { name: 'snapshot', arguments: '{}' } }] },
      { id: 't1', role: 'tool', content: '<dom/>', toolCallId: 'c1', toolName: 'snapshot' },
      { id: 'a2', role: 'assistant', content: 'done' },
    ]);
    const last = await compressSession(context, ids[3]!, { summary: 'summary 3' });
    ids.push(last.sessionId);
    return { store, ids, last };
  };

  it('loading by the root, a middle and the tip id returns the same whole conversation', async () => {
    const { store, ids, last } = await build();
    expect(last.rootId).toBe(ids[0]);

    const fromRoot = await loadConversation(store, ids[0]!);
    const fromMiddle = await loadConversation(store, ids[2]!);
    const fromTip = await loadConversation(store, ids[4]!);

    expect(fromRoot.rootId).toBe(ids[0]);
    expect(fromRoot.tipId).toBe(ids[4]);
    expect(fromRoot.segments.map((segment) => segment.sessionId)).toEqual(ids);
    expect(fromRoot.messages.map((message) => [message.id, message.sessionId, message.compacted])).toEqual([
      ['u1', ids[3], false],
      ['a1', ids[3], false],
      ['t1', ids[3], false],
      ['a2', ids[3], false],
    ]);
    expect(fromMiddle).toEqual(fromRoot);
    expect(fromTip).toEqual(fromRoot);
  });

  it('the session list shows one row for the chain, and resume prints every message', async () => {
    const { store, ids } = await build();

    const rows = await listConversations(store);
    const text = renderTranscript(await loadConversation(store, ids[0]!));

    expect(rows).toEqual([expect.objectContaining({ rootId: ids[0], tipId: ids[4], segments: ids, messages: 4, live: false, title: 'long chat' })]);
    expect(text).toContain('user: inspect the page');
    expect(text).toContain('-> snapshot({})');
    expect(text).toContain('assistant: done');
    expect(text.match(/=== continued in/g)).toHaveLength(4);
  });

  it('the active view of the chain is the tip context: the last compression summary', async () => {
    const { store, ids } = await build();

    const active = await loadConversation(store, ids[0]!, { view: 'active' });

    expect(active.messages).toEqual([expect.objectContaining({ kind: 'summary', content: 'summary 3', sessionId: ids[4] })]);
  });
});

import { describe, expect, it } from 'vitest';
import type { EventStore } from '@session-ledger/core';
import { appendMessages, compactHistory, compressSession, loadConversation, rewindMessages, rewriteMessage, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

describe.each(STORES)('compaction, rewrites and rewinds (%s)', (_name, open) => {
  const conversation = async () => {
    const writer = writerOn(open());
    const { sessionId } = await startSession(writer.context, { id: 'chat' });
    await appendMessages(writer.context, sessionId, [
      { id: 'sys', role: 'system', content: 'be brief' },
      { id: 'u1', role: 'user', content: 'first question' },
      { id: 'a1', role: 'assistant', content: 'first answer' },
      { id: 'u2', role: 'user', content: 'second question' },
    ]);
    return { ...writer, sessionId };
  };

  it('in-place compaction keeps compacted messages in display and takes them out of active', async () => {
    const { context, store, sessionId } = await conversation();

    const { summaryId } = await compactHistory(context, sessionId, { throughMessageId: 'a1', summary: 'asked and answered once' });

    const display = await loadConversation(store, sessionId);
    const active = await loadConversation(store, sessionId, { view: 'active' });
    expect(display.messages.map((message) => [message.id, message.compacted])).toEqual([
      ['sys', true],
      ['u1', true],
      ['a1', true],
      ['u2', false],
    ]);
    expect(active.messages.map((item) => item.id)).toEqual([summaryId, 'u2']);
    expect(active.messages[0]).toMatchObject({ kind: 'summary', content: 'asked and answered once' });
  });

  it('a listed compaction leaves other messages active and refuses messages already compacted', async () => {
    const { context, store, sessionId } = await conversation();

    await compactHistory(context, sessionId, { messageIds: ['u1', 'a1'], summary: 'S', summaryId: 'sum-1' });

    const active = await loadConversation(store, sessionId, { view: 'active' });
    expect(active.messages.map((item) => item.id)).toEqual(['sys', 'sum-1', 'u2']);
    await expect(compactHistory(context, sessionId, { messageIds: ['a1'], summary: 'again' })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(compactHistory(context, sessionId, { throughMessageId: 'nope', summary: 'x' })).rejects.toMatchObject({ type: 'not_found' });
  });

  it('a compaction retried with its summaryId stores nothing new; other content under that id is refused', async () => {
    const { context, store, sessionId } = await conversation();
    const first = await compactHistory(context, sessionId, { throughMessageId: 'a1', summary: 'S', summaryId: 'sum-r' });
    expect(first).toMatchObject({ summaryId: 'sum-r', written: true });
    const again = await compactHistory(context, sessionId, { throughMessageId: 'a1', summary: 'S', summaryId: 'sum-r' });
    expect(again).toMatchObject({ summaryId: 'sum-r', written: false, revision: first.revision });
    await expect(compactHistory(context, sessionId, { throughMessageId: 'u2', summary: 'other', summaryId: 'sum-r' })).rejects.toMatchObject({
      type: 'duplicate',
      message: expect.stringContaining('summary sum-r is already stored'),
    });
    const compactions = (await loadConversation(store, sessionId, { view: 'raw' })).events.filter((event) => event.type === 'history.compacted');
    expect(compactions).toHaveLength(1);
  });

  // Outside test, session 35 (helper-97 F4): the retry addressed to the tip after a compression was "other content".
  it('a compaction retried to the tip after a compression is recognised as the same one; other content stays refused', async () => {
    const { context, store, sessionId } = await conversation();
    await compactHistory(context, sessionId, { throughMessageId: 'a1', summary: 'S1', summaryId: 'sum-t' });
    await compressSession(context, sessionId, { summary: 'C1', childId: 'chat-2' });
    const again = await compactHistory(context, 'chat-2', { throughMessageId: 'a1', summary: 'S1', summaryId: 'sum-t' });
    expect(again).toMatchObject({ summaryId: 'sum-t', written: false });
    await expect(compactHistory(context, 'chat-2', { throughMessageId: 'a1', summary: 'other', summaryId: 'sum-t' })).rejects.toMatchObject({ type: 'duplicate' });
    const compactions = (await loadConversation(store, 'chat-2', { view: 'raw' })).events.filter((event) => event.type === 'history.compacted');
    expect(compactions).toHaveLength(1);
  });

  it('a compaction through an earlier message than a summary stands for is refused: the later messages keep their summary (outside test, session 24)', async () => {
    const { context, store, sessionId } = await conversation();
    await compactHistory(context, sessionId, { throughMessageId: 'u2', summary: 'S through u2', summaryId: 'wide' });

    // before, it was stored and retired 'wide': a1 and u2 were then in no summary the model saw
    await expect(compactHistory(context, sessionId, { throughMessageId: 'u1', summary: 'S through u1' })).rejects.toMatchObject({
      type: 'invalid_input',
      message: expect.stringContaining('would retire summary wide, which also stands for later messages (through u2)'),
    });
    const active = await loadConversation(store, sessionId, { view: 'active' });
    expect(active.messages.map((item) => [item.id, item.content])).toEqual([['wide', 'S through u2']]);
    // through the same message or a later one still replaces it
    await compactHistory(context, sessionId, { throughMessageId: 'u2', summary: 'again', summaryId: 'again' });
    expect((await loadConversation(store, sessionId, { view: 'active' })).messages.map((item) => item.id)).toEqual(['again']);
    // 'again' stands for u2 too (through the summary it replaced): an earlier through is still refused
    await expect(compactHistory(context, sessionId, { throughMessageId: 'a1', summary: 'S through a1' })).rejects.toMatchObject({
      type: 'invalid_input',
      message: expect.stringContaining('would retire summary again, which also stands for later messages (through u2)'),
    });
  });

  it('two compactions that read before either wrote: the second is checked again against the first, not stored blind (outside test, session 24)', async () => {
    const { store, sessionId } = await conversation();
    // the first two appends wait for each other, then land through u2 first, through u1 second
    const waiting: Array<{ through: unknown; go: () => void }> = [];
    const held = {
      ...store,
      async appendToStream(stream: string, events: Parameters<EventStore['appendToStream']>[1], options?: Parameters<EventStore['appendToStream']>[2]) {
        if (waiting.length < 2) {
          const through = (events[0]?.data as { throughMessageId?: unknown }).throughMessageId;
          await new Promise<void>((go) => {
            waiting.push({ through, go });
            if (waiting.length === 2) for (const id of ['u2', 'u1']) waiting.find((entry) => entry.through === id)!.go();
          });
        }
        return store.appendToStream(stream, events, options);
      },
    } as EventStore;
    // two writers with a ledger each, as two processes (one ledger runs one stream's commands in turn)
    const [first, second] = [writerOn(held), writerOn(held)];

    const [wide, narrow] = await Promise.allSettled([
      compactHistory(first.context, sessionId, { throughMessageId: 'u2', summary: 'through u2', summaryId: 'wide' }),
      compactHistory(second.context, sessionId, { throughMessageId: 'u1', summary: 'through u1', summaryId: 'narrow' }),
    ]);

    expect(wide.status).toBe('fulfilled');
    // before, it was stored too and retired 'wide': a1 and u2 were left in no summary the model saw
    expect(narrow).toMatchObject({ status: 'rejected', reason: { type: 'invalid_input' } });
    expect((await loadConversation(store, sessionId, { view: 'active' })).messages.map((item) => item.id)).toEqual(['wide']);
  });

  it('a rewrite keeps the message count and id, changes display and keeps the earlier version', async () => {
    const { context, store, sessionId } = await conversation();
    const before = await loadConversation(store, sessionId);

    await rewriteMessage(context, sessionId, 'a1', 'corrected answer');

    const after = await loadConversation(store, sessionId);
    expect(after.messages).toHaveLength(before.messages.length);
    expect(after.messages[2]).toMatchObject({ id: 'a1', content: 'corrected answer', rewritten: true });
    expect(after.messages[2]!.versions.map((version) => version.content)).toEqual(['first answer']);
    const active = await loadConversation(store, sessionId, { view: 'active' });
    expect(active.messages.find((item) => item.id === 'a1')!.content).toBe('corrected answer');
  });

  it('rewriting an unknown message is not_found and writes nothing', async () => {
    const { context, store, sessionId } = await conversation();
    const before = await loadConversation(store, sessionId, { view: 'raw' });

    await expect(rewriteMessage(context, sessionId, 'missing', 'x')).rejects.toMatchObject({ type: 'not_found' });

    expect((await loadConversation(store, sessionId, { view: 'raw' })).events).toHaveLength(before.events.length);
  });

  it('rewound messages leave display and active but stay in raw', async () => {
    const { context, store, sessionId } = await conversation();

    await rewindMessages(context, sessionId, ['u2'], { reason: 'regenerate' });

    expect((await loadConversation(store, sessionId)).messages.map((message) => message.id)).toEqual(['sys', 'u1', 'a1']);
    expect((await loadConversation(store, sessionId, { view: 'active' })).messages.map((item) => item.id)).toEqual(['sys', 'u1', 'a1']);
    const raw = await loadConversation(store, sessionId, { view: 'raw' });
    expect(raw.events.filter((event) => event.type === 'message.appended')).toHaveLength(4);
  });
});

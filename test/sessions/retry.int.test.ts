import { describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { appendMessage, appendMessages, compressSession, endSession, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

describe.each(STORES)('retried appends (%s)', (_name, open) => {
  it('an append retried with the same ids and expected revision does not duplicate', async () => {
    const { context, store } = writerOn(open());
    const started = await startSession(context, { id: 's' });
    const batch = [
      { id: 'm1', role: 'user' as const, content: 'hello' },
      { id: 'm2', role: 'assistant' as const, content: 'hi' },
    ];

    const first = await appendMessages(context, 's', batch, { expectedRevision: started.revision });
    const retry = await appendMessages(context, 's', batch, { expectedRevision: started.revision });

    expect(first).toMatchObject({ revision: 2n, messageIds: ['m1', 'm2'] });
    expect(retry).toMatchObject({ revision: 2n, messageIds: ['m1', 'm2'] });
    expect(first.written).not.toBe(false);
    expect(retry.written).not.toBe(true); // false, or absent where the backend cannot tell
    expect((await loadConversation(store, 's', { view: 'raw' })).events).toHaveLength(3);
    expect((await loadConversation(store, 's')).messages.map((message) => message.id)).toEqual(['m1', 'm2']);
  });

  it('without a message id, two appends at one expected revision are two writes: the second is refused, never merged into the first', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });

    const first = await appendMessage(context, 's', { role: 'user', content: 'hello' }, { expectedRevision: 0n });
    await expect(appendMessage(context, 's', { role: 'user', content: 'hello' }, { expectedRevision: 0n })).rejects.toMatchObject({ type: 'wrong_expected_version' });

    expect((await loadConversation(store, 's')).messages.map((message) => message.id)).toEqual([first.messageId]);
  });

  it('the same message id with other content is a conflict, never a silent no-op', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' });

    await expect(appendMessage(context, 's', { id: 'm1', role: 'user', content: 'other' })).rejects.toMatchObject({ type: 'duplicate' });
    await expect(appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' }, { expectedRevision: 0n })).resolves.toMatchObject({ written: false });
    expect((await loadConversation(store, 's')).messages.map((message) => message.content)).toEqual(['hello']);
  });

  it.each(['compressed', 'ended'] as const)('a retry to the segment that stored it, once the segment was %s since: a no-op, never sealed or ended (outside test: stored twice via the tip)', async (since) => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' });
    if (since === 'compressed') await compressSession(context, 's', { summary: 'said hello', childId: 's-2' });
    else await endSession(context, 's');

    await expect(appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' })).resolves.toMatchObject({ written: false, messageId: 'm1' });
    // Anything else is refused as before: a new message, and the same id with other content.
    await expect(appendMessage(context, 's', { id: 'm2', role: 'user', content: 'new' })).rejects.toMatchObject({ type: since === 'compressed' ? 'session_sealed' : 'session_ended' });
    await expect(appendMessage(context, 's', { id: 'm1', role: 'user', content: 'other' })).rejects.toMatchObject({ type: since === 'compressed' ? 'session_sealed' : 'session_ended' });
    const raw = (await loadConversation(store, 's', { view: 'raw' })).events.filter((event) => event.type === 'message.appended');
    expect(raw).toHaveLength(1);
  });

  it('a retry sent to the tip of a message the root holds (compressed since): a no-op; other content a conflict naming the root; a new id stored', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' });
    await compressSession(context, 's', { summary: 'said hello', childId: 's-2' });
    await compressSession(context, 's-2', { summary: 'still hello', childId: 's-3' });

    // Two compressions up: the retry reaches the root through s-2.
    await expect(appendMessage(context, 's-3', { id: 'm1', role: 'user', content: 'hello' })).resolves.toMatchObject({ written: false, messageId: 'm1' });
    await expect(appendMessages(context, 's-3', [{ id: 'm1', role: 'user', content: 'hello' }])).resolves.toMatchObject({ written: false, messageIds: ['m1'] });
    await expect(appendMessage(context, 's-3', { id: 'm1', role: 'user', content: 'other' })).rejects.toMatchObject({ type: 'duplicate', message: expect.stringContaining('in session s with other content') });
    await expect(appendMessages(context, 's-3', [{ id: 'm1', role: 'user', content: 'hello' }, { id: 'm2', role: 'user', content: 'new' }])).rejects.toMatchObject({ type: 'duplicate', message: expect.stringContaining('partly stored') });
    await expect(appendMessage(context, 's-3', { id: 'm2', role: 'user', content: 'new' })).resolves.toMatchObject({ written: true, messageId: 'm2' });

    // The raw view reads the whole lineage, root to tip: m1 is stored once in it, in the root.
    const raw = (await loadConversation(store, 's-3', { view: 'raw' })).events.filter((event) => event.type === 'message.appended');
    expect(raw.map((event) => (event.data as { messageId: string }).messageId)).toEqual(['m1', 'm2']);
    expect((await loadConversation(store, 's-3')).messages.map((message) => [message.id, message.content])).toEqual([['m1', 'hello'], ['m2', 'new']]);
  });

  it('a retried start with other settings is a conflict; the same settings a no-op', async () => {
    const { context } = writerOn(open());
    await startSession(context, { id: 's', title: 'first', model: 'm' });

    await expect(startSession(context, { id: 's', title: 'second', model: 'm' })).rejects.toMatchObject({ type: 'duplicate' });
    await expect(startSession(context, { id: 's', title: 'first', model: 'm' })).resolves.toMatchObject({ created: false });
  });

  it('a stateless retry (no expected revision) with the same message id is recognized', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });

    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' });
    const retry = await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' });

    expect(retry.written).toBe(false);
    expect((await loadConversation(store, 's', { view: 'raw' })).events).toHaveLength(2);
  });

  it('a stale expected revision with new ids is refused with wrong_expected_version and writes nothing', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'a' }, { expectedRevision: 0n });

    await expect(appendMessage(context, 's', { id: 'm2', role: 'user', content: 'b' }, { expectedRevision: 0n })).rejects.toMatchObject({
      type: 'wrong_expected_version',
    });
    expect((await loadConversation(store, 's')).messages.map((message) => message.id)).toEqual(['m1']);
  });

  it('a retried start with the same id is a no-op; another parent for that id is a duplicate', async () => {
    const { context } = writerOn(open());
    await startSession(context, { id: 'p' });

    expect(await startSession(context, { id: 's' })).toMatchObject({ created: true });
    expect(await startSession(context, { id: 's' })).toMatchObject({ created: false });
    await expect(startSession(context, { id: 's', parentId: 'p', link: 'delegation' })).rejects.toMatchObject({ type: 'duplicate' });
  });

  it('two stateless writers appending at once both land, in some order, with no error', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    const other = { ...context, ledger: createLedger(store) };

    await Promise.all([
      appendMessage(context, 's', { id: 'from-a', role: 'user', content: 'a' }),
      appendMessage(other, 's', { id: 'from-b', role: 'user', content: 'b' }),
    ]);

    expect((await loadConversation(store, 's')).messages.map((message) => message.id).sort()).toEqual(['from-a', 'from-b']);
  });

  it('a writer that gives its expected revision gets the conflict instead', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    const other = { ...context, ledger: createLedger(store) };

    const results = await Promise.allSettled([
      appendMessage(context, 's', { id: 'from-a', role: 'user', content: 'a' }, { expectedRevision: 0n }),
      appendMessage(other, 's', { id: 'from-b', role: 'user', content: 'b' }, { expectedRevision: 0n }),
    ]);

    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await loadConversation(store, 's')).messages).toHaveLength(1);
  });
});

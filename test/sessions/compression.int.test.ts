import { describe, expect, it } from 'vitest';
import { type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { appendMessage, compressSession, listConversations, loadConversation, rewriteMessage, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

/** A store that dies on the first write to any stream but the given one: the crash between compression's two writes. */
const crashingAfterFirstWrite = (store: EventStore, survivor: string): EventStore => {
  let crashed = false;
  return {
    ...store,
    async appendToStream(stream, events, options) {
      if (!crashed && stream !== survivor) {
        crashed = true;
        throw new Error('process killed');
      }
      return store.appendToStream(stream, events, options);
    },
  };
};

describe.each(STORES)('compression (%s)', (_name, open) => {
  it('a crash between continued and the child start leaves history reachable, and a retry completes the same child', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 'root' });
    const { revision } = await appendMessage(writer.context, 'root', { id: 'm1', role: 'user', content: 'keep me' });
    const crashing = writerOn(crashingAfterFirstWrite(writer.store, sessionStream('root')));

    await expect(compressSession(crashing.context, 'root', { summary: 'S', expectedRevision: revision })).rejects.toThrow('process killed');

    const between = await loadConversation(writer.store, 'root');
    expect(between).toMatchObject({ rootId: 'root', tipId: 'root' });
    expect(between.messages.map((message) => message.id)).toEqual(['m1']);
    expect((await listConversations(writer.store)).map((row) => [row.rootId, row.tipId, row.messages])).toEqual([['root', 'root', 1]]);
    await expect(appendMessage(writer.context, 'root', { role: 'user', content: 'x' })).rejects.toMatchObject({ type: 'session_sealed' });

    const retried = await compressSession(writer.context, 'root', { summary: 'S', expectedRevision: revision });
    const again = await compressSession(writer.context, 'root', { summary: 'S', expectedRevision: revision });

    expect(again).toMatchObject({ sessionId: retried.sessionId, written: false });
    const after = await loadConversation(writer.store, 'root');
    expect(after.tipId).toBe(retried.sessionId);
    expect(after.segments.map((segment) => segment.sessionId)).toEqual(['root', retried.sessionId]);
  });

  it('a writer refused by a segment whose compression was killed between its writes finishes it: the tip it is told of takes the write (outside test, session 24)', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 'root', model: 'some-model' });
    await appendMessage(writer.context, 'root', { id: 'm1', role: 'user', content: 'keep me' });
    const crashing = writerOn(crashingAfterFirstWrite(writer.store, sessionStream('root')));
    await expect(compressSession(crashing.context, 'root', { summary: 'S', childId: 'tip' })).rejects.toThrow('process killed');

    // before, the refusal named 'tip' "not started yet" and a write there was not_found until compress ran again
    const refusal = await appendMessage(writer.context, 'root', { role: 'user', content: 'x' }).then(() => null, (error: unknown) => error);
    expect(refusal).toMatchObject({ type: 'session_sealed', details: { sessionId: 'root', tipId: 'tip' }, message: 'Session root was compressed; write to its tip tip' });
    await appendMessage(writer.context, 'tip', { id: 'm2', role: 'user', content: 'after the compression' });

    const after = await loadConversation(writer.store, 'root', { view: 'active' });
    expect(after).toMatchObject({ rootId: 'root', tipId: 'tip' });
    expect(after.messages.map((message) => message.content)).toEqual(['S', 'after the compression']);
    expect(after.segments.map((segment) => segment.sessionId)).toEqual(['root', 'tip']);
    // the start it wrote is the compression's own: running that compression again is a no-op
    expect(await compressSession(writer.context, 'root', { summary: 'S', childId: 'tip' })).toMatchObject({ sessionId: 'tip', written: false });
  });

  it('a compress on a segment left half-compressed completes the stored compression, and refuses (not merges) another summary', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 'root' });
    const crashing = writerOn(crashingAfterFirstWrite(writer.store, sessionStream('root')));
    await expect(compressSession(crashing.context, 'root', { summary: 'stored summary', childId: 'child' })).rejects.toThrow();

    await expect(compressSession(writer.context, 'root', { summary: 'another summary' })).rejects.toMatchObject({ type: 'session_sealed', details: { tipId: 'child' } });
    const completed = await compressSession(writer.context, 'root', { summary: 'stored summary' });

    expect(completed).toMatchObject({ sessionId: 'child', rootId: 'root', written: false });
    const active = await loadConversation(writer.store, 'child', { view: 'active' });
    expect(active.messages).toEqual([expect.objectContaining({ kind: 'summary', content: 'stored summary' })]);
  });

  it('a sealed segment refuses every later write, naming the tip; writes to the tip may rewrite older messages', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 'a' });
    const { revision } = await appendMessage(context, 'a', { id: 'm1', role: 'user', content: 'old' });
    const { sessionId: b } = await compressSession(context, 'a', { summary: 'S1', childId: 'b' });
    await compressSession(context, b, { summary: 'S2', childId: 'c' });

    await expect(appendMessage(context, 'a', { role: 'user', content: 'late' }, { expectedRevision: revision + 1n })).rejects.toMatchObject({
      type: 'session_sealed',
      details: { sessionId: 'a', tipId: 'c' },
    });
    await expect(appendMessage(context, 'b', { role: 'user', content: 'late' })).rejects.toMatchObject({ type: 'session_sealed', details: { tipId: 'c' } });
    await expect(compressSession(context, 'a', { summary: 'again' })).rejects.toMatchObject({ type: 'session_sealed' });

    await rewriteMessage(context, 'c', 'm1', 'fixed from the tip');
    expect((await loadConversation(store, 'a')).messages[0]).toMatchObject({ id: 'm1', sessionId: 'a', content: 'fixed from the tip' });
  });
});

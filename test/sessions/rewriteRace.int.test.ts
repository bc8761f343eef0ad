import { describe, expect, it } from 'vitest';
import { createLedger, type EventStore } from '@session-ledger/core';
import { appendMessages, compactHistory, loadConversation, rewriteMessage, startSession } from '@session-ledger/sessions';
import { wrapStore } from '../support/killedStore.js';
import { STORES, writerOn } from './stores.js';

/**
 * The same rewrite sent by several clients at once (two server processes on one file): each read
 * the old content, and each was stored, so the display listed the new content as its own earlier
 * version four times (outside test, session 33, helper-92 F6). A rewrite is stored only at the
 * revision it read; one that finds the segment moved reads again, and the same content is a no-op.
 */
describe.each(STORES)('rewrites racing (%s)', (_name, open) => {
  /** A store on which `racer` runs once, right before the first rewrite is appended. */
  const racing = (base: EventStore, racer: () => Promise<unknown>): EventStore => {
    let raced = false;
    return wrapStore(base, {
      appendToStream: async (stream, events, options) => {
        if (!raced && events.some((event) => event.type === 'message.rewritten')) {
          raced = true;
          await racer();
        }
        return base.appendToStream(stream, events, options);
      },
    });
  };

  it('the same content: stored once, the later one answered as a no-op', async () => {
    const base = open();
    const writer = writerOn(base);
    await startSession(writer.context, { id: 's' });
    await appendMessages(writer.context, 's', [{ id: 'm1', role: 'user', content: 'a' }]);
    let first: Awaited<ReturnType<typeof rewriteMessage>> | undefined;
    // The racer runs (and stores its rewrite) between this call's read and its append.
    const store = racing(base, async () => (first = await rewriteMessage(writer.context, 's', 'm1', 'b')));
    const second = await rewriteMessage({ ...writer.context, ledger: createLedger(store) }, 's', 'm1', 'b');

    expect([first?.written, second.written]).toEqual([true, false]);
    const raw = await loadConversation(base, 's', { view: 'raw' });
    expect(raw.events.filter((event) => event.type === 'message.rewritten')).toHaveLength(1);
    const [message] = (await loadConversation(base, 's', { view: 'display' })).messages;
    expect([message!.content, message!.versions.map((version) => version.content)]).toEqual(['b', ['a']]);
  });

  it('other content: both stored, the later one naming the content it replaced', async () => {
    const base = open();
    const writer = writerOn(base);
    await startSession(writer.context, { id: 's' });
    await appendMessages(writer.context, 's', [{ id: 'm1', role: 'user', content: 'a' }]);
    const store = racing(base, () => rewriteMessage(writer.context, 's', 'm1', 'b'));
    await rewriteMessage({ ...writer.context, ledger: createLedger(store) }, 's', 'm1', 'c');

    const raw = await loadConversation(base, 's', { view: 'raw' });
    expect(raw.events.filter((event) => event.type === 'message.rewritten').map((event) => (event.data as { previous: string }).previous)).toEqual(['a', 'b']);
  });

  it('with the caller\'s expectedRevision: the refusal, nothing stored', async () => {
    const base = open();
    const writer = writerOn(base);
    await startSession(writer.context, { id: 's' });
    const { revision } = await appendMessages(writer.context, 's', [{ id: 'm1', role: 'user', content: 'a' }]);
    const store = racing(base, () => rewriteMessage(writer.context, 's', 'm1', 'b'));
    await expect(rewriteMessage({ ...writer.context, ledger: createLedger(store) }, 's', 'm1', 'c', { expectedRevision: revision })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    expect((await loadConversation(base, 's', { view: 'display' })).messages[0]!.content).toBe('b');
  });
});

/**
 * The same races inside ONE process (one `serve`, one library ledger): the write path's cached view
 * was updated in place by each append, so a caller that read it and awaited its check appended at the
 * revision another caller's write had moved it to, a decision checked on older history (outside test,
 * session 35, helper-97 F2, F6).
 */
describe.each(STORES)('writes racing in one process on one ledger (%s)', (_name, open) => {
  it('identical rewrites racing with rewrites of other messages: each stored once, one of each pair answered written', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await appendMessages(writer.context, 's', Array.from({ length: 5 }, (_, i) => ({ id: `m${i}`, role: 'user' as const, content: `m${i}` })));
    const results = await Promise.all(Array.from({ length: 10 }, (_, c) => rewriteMessage(writer.context, 's', `m${c % 5}`, `NEW${c % 5}`)));
    expect(results.filter((result) => result.written)).toHaveLength(5);
    const raw = await loadConversation(writer.context.ledger.store, 's', { view: 'raw' });
    expect(raw.events.filter((event) => event.type === 'message.rewritten')).toHaveLength(5);
    const display = await loadConversation(writer.context.ledger.store, 's', { view: 'display' });
    expect(display.messages.map((message) => [message.content, message.versions.map((version) => version.content)])).toEqual(
      Array.from({ length: 5 }, (_, i) => [`NEW${i}`, [`m${i}`]]),
    );
  });

  it('compactions racing: never stored backwards, and the active view ends with the last message or a summary through it', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await appendMessages(writer.context, 's', Array.from({ length: 30 }, (_, i) => ({ id: `m${i}`, role: 'user' as const, content: `m${i}` })));
    const through = [3, 29, 17, 27, 12, 24, 8, 28, 20, 5, 26, 29];
    await Promise.all(through.map((k) => compactHistory(writer.context, 's', { throughMessageId: `m${k}`, summary: `through m${k}` }).catch((error: { type?: string }) => error.type)));
    const raw = await loadConversation(writer.context.ledger.store, 's', { view: 'raw' });
    const stored = raw.events.filter((event) => event.type === 'history.compacted').map((event) => Number((event.data as { throughMessageId: string }).throughMessageId.slice(1)));
    expect(stored.every((k, i) => i === 0 || k >= Math.max(...stored.slice(0, i)))).toBe(true);
    const active = await loadConversation(writer.context.ledger.store, 's', { view: 'active' });
    const last = active.messages[active.messages.length - 1]!;
    expect(last.content).toBe(`through m${Math.max(...stored)}`);
    expect(Math.max(...stored)).toBe(29);
  });
});

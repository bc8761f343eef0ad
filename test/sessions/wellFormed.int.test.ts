import { describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '@session-ledger/core';
import {
  appendMessage,
  beginTurn,
  compactHistory,
  compressSession,
  endSession,
  rewriteMessage,
  startSession,
} from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

const LONE = 'x\ud800y';
const LOW = '\udc00';

const everything = async (store: EventStore): Promise<RecordedEvent[]> => store.readAll();

/**
 * A lone surrogate anywhere in a session write is refused (invalid_input) before anything is
 * stored, on every store: SQLite would keep U+FFFD under a hash over the surrogate, so
 * `audit verify` would fail forever. Every field a writer can fill is tried.
 */
describe.each(STORES)('well-formed session writes only (%s)', (_name, open) => {
  it('refuses a lone surrogate in any field of any session write, and stores nothing', async () => {
    const { context, store, ledger } = writerOn(open());
    await startSession(context, { id: 's', title: 'ok' });
    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'hello' });
    await appendMessage(context, 's', { id: 'm2', role: 'assistant', content: 'hi' });
    const before = await everything(store);

    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['start title', () => startSession(context, { id: 't1', title: LONE })],
      ['start source', () => startSession(context, { id: 't2', source: LONE })],
      ['start model', () => startSession(context, { id: 't3', model: LOW })],
      ['start extra value', () => startSession(context, { id: 't4', extra: { note: [LONE] } })],
      ['start extra key', () => startSession(context, { id: 't5', extra: { [LOW]: 1 } })],
      ['message content', () => appendMessage(context, 's', { role: 'user', content: LONE })],
      ['message reasoning', () => appendMessage(context, 's', { role: 'assistant', content: 'ok', reasoning: LONE })],
      ['message tool calls', () => appendMessage(context, 's', { role: 'assistant', content: null, toolCalls: [{ id: 'c1', function: { name: 'f', arguments: `{"q":"${LOW}"}` } }] })],
      ['message tool name', () => appendMessage(context, 's', { role: 'tool', content: 'r', toolCallId: 'c1', toolName: LONE })],
      ['message tool call id', () => appendMessage(context, 's', { role: 'tool', content: 'r', toolCallId: LOW, toolName: 'f' })],
      ['message parts (extra)', () => appendMessage(context, 's', { role: 'user', content: 'ok', extra: { parts: [{ type: 'text', text: LONE }] } })],
      ['message finish reason', () => appendMessage(context, 's', { role: 'assistant', content: 'ok', finishReason: LOW })],
      ['rewrite', () => rewriteMessage(context, 's', 'm1', LONE)],
      ['rewrite reason', () => rewriteMessage(context, 's', 'm1', 'fine', { reason: LOW })],
      ['compaction summary', () => compactHistory(context, 's', { throughMessageId: 'm1', summary: LONE })],
      ['compression summary', () => compressSession(context, 's', { summary: LONE })],
      ['turn owner', () => beginTurn(context, 's', { owner: LONE, ttlMs: 30_000 })],
      ['end reason', () => endSession(context, 's', { reason: LOW })],
    ];
    for (const [label, attempt] of attempts) {
      await expect(attempt(), label).rejects.toMatchObject({ type: 'invalid_input', message: expect.stringContaining('lone surrogate') });
    }
    expect(await everything(store)).toEqual(before);
    expect((await ledger.verify()).broken).toBeNull();
  });

  it('a well-formed pair (an emoji) is stored as given', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's', title: 'clef \ud834\udd1e' });
    await appendMessage(context, 's', { id: 'm1', role: 'user', content: 'clef \ud834\udd1e' });
    const [, message] = await store.readStream('session-s');
    expect((message!.data as { content: string }).content).toBe('clef \ud834\udd1e');
  });
});

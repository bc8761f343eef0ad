import { createLedger, createMemoryStore, newId, type EventStore } from '@session-ledger/core';
import { encodeSessionEvent, sessionStream } from '@session-ledger/events';
import { activeView, displayView, foldConversation } from '@session-ledger/projections';
import {
  appendMessage,
  appendMessages,
  compactHistory,
  compressSession,
  loadConversation,
  readConversationState,
  startSession,
} from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { compareRates, compared, scratch } from './measure.js';
import type { BenchRow } from './types.js';
import { benchMessage } from './messages.js';

/** Issue 3: folding views, resuming a long chain, and the writer API's cost over a raw append. */
const MESSAGES = 100_000;
const COMPACTIONS = 50;
const CHAIN = 1000;
const APPENDS = 2000;

const message = benchMessage;

/** A 100k-message session with 50 in-place compactions, written through the writer API. */
const bigSession = async (store: EventStore) => {
  const context = { ledger: createLedger(store) };
  const { sessionId } = await startSession(context, { id: 'bench-big' });
  const every = MESSAGES / COMPACTIONS;
  for (let at = 0; at < MESSAGES; at += 1000) {
    await appendMessages(context, sessionId, Array.from({ length: 1000 }, (_, index) => message(at + index)));
    const last = at + 999;
    if ((last + 1) % every === 0) await compactHistory(context, sessionId, { throughMessageId: `m-${last - 10}`, summary: `summary through ${last - 10}` });
  }
  return readConversationState(store, sessionId);
};

const foldRow = async (): Promise<BenchRow> => {
  const { records } = await bigSession(createMemoryStore());
  const rates = await compareRates(
    records.length,
    {
      prepare: () => records,
      work: (input) => {
        const state = foldConversation(input);
        displayView(state);
        activeView(state);
      },
    },
    {
      // The ceiling: one pass that only files each message by id, nothing a view needs.
      prepare: () => records,
      work: (input) => {
        const byId = new Map<string, unknown>();
        for (const record of input) if (record.type === 'message.appended') byId.set(record.data.messageId, record.data);
      },
    },
    // A trial takes about 0.1 s: 11 of each give a steadier median than the default 5.
    11,
  );
  return compared(
    `fold display + active views: ${records.length} events (${MESSAGES} messages, ${COMPACTIONS} compactions), in memory`,
    'events/s',
    rates.subject,
    'one bare pass filing messages by id (target: subject >= 1,000,000 events/s)',
    rates.baseline,
  );
};

const chainRow = async (): Promise<BenchRow> => {
  const dir = scratch('chain');
  const store = openSqliteStore(dir.file('chain.sqlite'));
  const context = { ledger: createLedger(store) };
  const { sessionId: root } = await startSession(context, { id: 'bench-chain' });
  let tip = root;
  for (let n = 0; n < CHAIN - 1; n += 1) {
    await appendMessages(context, tip, [message(2 * n), message(2 * n + 1)]);
    tip = (await compressSession(context, tip, { summary: `segment ${n}` })).sessionId;
  }
  const rates = await compareRates(
    1,
    { prepare: () => undefined, work: async () => void (await loadConversation(store, root)) },
    { prepare: () => undefined, work: async () => void (await loadConversation(store, tip)) },
  );
  await store.close();
  dir.remove();
  const ms = (rate: number) => 1000 / rate;
  return {
    name: `resume a ${CHAIN}-segment chain from its root (sqlite)`,
    unit: 'ms',
    value: Math.round(ms(rates.subject) * 10) / 10,
    baseline: { name: 'the same from its tip (target: ratio <= 2)', value: Math.round(ms(rates.baseline) * 10) / 10 },
    ratio: Math.round((ms(rates.subject) / ms(rates.baseline)) * 100) / 100,
  };
};

const appendRow = async (): Promise<BenchRow> => {
  const dir = scratch('writer');
  const rates = await compareRates(
    APPENDS,
    {
      prepare: async () => {
        const store = openSqliteStore(dir.file(`${newId()}.sqlite`));
        const context = { ledger: createLedger(store) };
        const { sessionId, revision } = await startSession(context, {});
        // The harness's messages exist before it appends them, as the baseline's events do: not timed.
        const inputs = Array.from({ length: APPENDS }, (_, n) => message(n));
        return { store, context, sessionId, revision, inputs };
      },
      work: async ({ context, sessionId, revision, inputs }) => {
        let expectedRevision = revision;
        for (const input of inputs) {
          expectedRevision = (await appendMessage(context, sessionId, input, { expectedRevision })).revision;
        }
      },
      cleanup: ({ store }) => store.close(),
    },
    {
      prepare: async () => {
        const store = openSqliteStore(dir.file(`${newId()}.sqlite`));
        const stream = sessionStream(newId());
        const events = Array.from({ length: APPENDS }, (_, n) => {
          const { id: messageId, ...rest } = message(n);
          return { id: newId(), ...encodeSessionEvent({ type: 'message.appended', data: { ...rest, messageId: messageId!, timestamp: rest.timestamp! } }) };
        });
        return { store, stream, events };
      },
      work: async ({ store, stream, events }) => {
        let expectedRevision: bigint | 'no_stream' = 'no_stream';
        for (const event of events) expectedRevision = (await store.appendToStream(stream, [event], { expectedRevision })).nextExpectedRevision;
      },
      cleanup: ({ store }) => store.close(),
    },
    // A trial takes about 0.2 s and single trials move by 10% on a shared host: 11 of each, alternated.
    11,
  );
  dir.remove();
  return compared(
    'appendMessage through the writer API (validation, deterministic ids, hash chain), one message per append, sqlite',
    'messages/s',
    rates.subject,
    "the store's raw appendToStream of the same events at exact revisions (target: ratio >= 0.8)",
    rates.baseline,
  );
};

export const rows = async (): Promise<BenchRow[]> => [await foldRow(), await chainRow(), await appendRow()];

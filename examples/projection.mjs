// (c) Run a projection: write a session with the writer API, then fold its stored events into the
//     display view with the pure reducers of @session-ledger/projections (no I/O, no clock).
//     npm install @session-ledger/core @session-ledger/sessions @session-ledger/events @session-ledger/projections
//     node projection.mjs
import { createLedger, createMemoryStore, sessionStream } from '@session-ledger/core';
import { decodeSessionEvent } from '@session-ledger/events';
import { displayView, foldConversation } from '@session-ledger/projections';
import { appendMessage, compactHistory, startSession } from '@session-ledger/sessions';

const store = createMemoryStore();
const writer = { ledger: createLedger(store) };
const { sessionId } = await startSession(writer, { title: 'demo' });
const question = await appendMessage(writer, sessionId, { role: 'user', content: 'What is 6 x 7?' });
await appendMessage(writer, sessionId, { role: 'assistant', content: '42' });
await compactHistory(writer, sessionId, { throughMessageId: question.messageId, summary: 'asked for 6 x 7' });

// Decode (validate and upcast) each stored event, then fold: the projection is a pure function of the events.
const records = (await store.readStream(sessionStream(sessionId))).map(decodeSessionEvent);
const view = displayView(foldConversation(records));
for (const message of view.messages) console.log(`${message.role}: ${message.content}${message.compacted ? ' (compacted)' : ''}`);
console.log(`${records.length} events folded into ${view.messages.length} messages`);
await store.close();

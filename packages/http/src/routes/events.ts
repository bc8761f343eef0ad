import { newId, parseExpected, type JsonValue } from '@session-ledger/core';
import { appendRaw } from '@session-ledger/events';
import { z } from 'zod';
import { count, eventId, jsonObject, jsonValue, name, position, revision } from '../contract/common.js';
import * as R from '../contract/responses.js';
import { answerEventPages } from '../eventPages.js';
import { resumeFrom, SSE_HEADERS, SSE_QUERY, SSE_RESPONSE, streamSse } from '../sse.js';
import { route, type Route } from '../types.js';

const appendBody = z.strictObject({
  type: name.describe('the event type'),
  data: jsonValue,
  metadata: jsonObject.optional(),
  id: eventId.optional().describe('the event id (a UUID, stored in lower case); reuse it to retry idempotently'),
  expectedRevision: z
    .union([z.enum(['any', 'no_stream', 'stream_exists']), revision])
    .optional()
    .describe('any (default), no_stream, stream_exists, or the revision of the last event the writer saw'),
});

const PAGED =
  'Written page by page as the client reads, so a slow client holds about one event of the server. A read that fails after its first page (the stream deleted meanwhile, a damaged event) ends without the closing `]`: a broken answer, never a short list.';

/** Raw streams: read, append (through the hash-chained ledger), $all, and the SSE feed. */
export const eventRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/streams/:stream',
    tag: 'streams',
    summary: "A stream's events",
    description: PAGED,
    query: z.strictObject({ from: position.optional(), max: count.optional(), direction: z.enum(['forwards', 'backwards']).optional() }),
    responses: { 200: { description: 'the events, in revision order (or reversed)', schema: R.events }, 404: { description: 'no such stream' }, 410: { description: 'the stream was deleted for good' } },
    handler: async ({ store, params, query, req, res }) => {
      const direction = query.direction ?? 'forwards';
      const step = direction === 'forwards' ? 1n : -1n;
      await answerEventPages(res, req.method === 'HEAD', query.max ?? 1000, async (last, maxCount) => {
        if (last === null) return store.readStream(params.stream!, { direction, fromRevision: query.from, maxCount });
        // Backwards past revision 0: nothing more.
        return last.revision + step < 0n ? [] : store.readStream(params.stream!, { direction, fromRevision: last.revision + step, maxCount });
      });
      return null;
    },
  }),
  route({
    method: 'POST',
    path: '/streams/:stream',
    tag: 'streams',
    summary: 'Append one event (hash-chained)',
    description:
      'Any stream but the reserved families: `session-` and `memory-` streams are written only through /sessions/* and /memory/* (their writers keep the rules of turns, message ids, entries and budgets), `ledger-` streams only by the ledger itself (400).',
    body: appendBody,
    responses: {
      200: { description: 'already stored: a retry of an event with the same id, which writes nothing (`written: false`)', schema: R.streamAppended },
      201: { description: 'stored', schema: R.streamAppended },
      409: { description: 'wrong expected revision' },
      410: { description: "the stream was deleted for good (tombstoned, as a deleted session's segments are): it is never written again" },
    },
    handler: async ({ ledger, params, body }) => {
      const expectedRevision = parseExpected(String(body.expectedRevision ?? 'any'))!;
      const result = await appendRaw(ledger, {
        stream: params.stream!,
        id: body.id ?? newId(),
        type: body.type,
        data: body.data as JsonValue,
        metadata: body.metadata as never,
        expectedRevision,
      });
      // A retry answers as a retried session write does: 200, nothing created.
      return { status: result.written === false ? 200 : 201, body: { stream: params.stream, ...result } };
    },
  }),
  route({
    method: 'GET',
    path: '/all',
    tag: 'streams',
    summary: 'Every event in commit order',
    description: PAGED,
    query: z.strictObject({ from: position.optional().describe('the first commit position to include'), max: count.optional() }),
    responses: { 200: { description: 'the events', schema: R.events } },
    handler: async ({ store, query, req, res }) => {
      await answerEventPages(res, req.method === 'HEAD', query.max ?? 1000, (last, maxCount) =>
        store.readAll({ fromPosition: last === null ? (query.from ?? 'start') : last.position + 1n, maxCount }),
      );
      return null;
    },
  }),
  route({
    method: 'GET',
    path: '/subscribe',
    tag: 'streams',
    summary: 'Every event as Server-Sent Events: history, then live',
    description: SSE_QUERY.description,
    sse: true,
    headers: SSE_HEADERS,
    query: SSE_QUERY.extend({
      prefix: z.array(name).optional().describe('only streams whose name starts with one of these (repeatable)'),
      type: z.array(name).optional().describe('only these event types (repeatable)'),
    }),
    responses: SSE_RESPONSE,
    handler: async ({ store, req, res, query }) => {
      const subscription = store.subscribeToAll({ fromPosition: resumeFrom(req, query), filter: { streamNamePrefixes: query.prefix ?? [], eventTypes: query.type ?? [] } });
      await streamSse(req, res, subscription);
      return null;
    },
  }),
];

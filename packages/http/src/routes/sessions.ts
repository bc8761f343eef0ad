import {
  appendMessage,
  beginTurn,
  compactHistory,
  compressSession,
  viewEtag,
  endSession,
  endTurn,
  loadConversation,
  renderTranscript,
  renewLease,
  reopenSession,
  rewriteMessage,
  startSession,
  viewToJson,
} from '@session-ledger/sessions';
import { z } from 'zod';
import { catalogPage, parseSince, readModelsOf, resolveSessionIn } from '@session-ledger/read-models';
import { noneMatchHolds } from '../conditional.js';
import { name } from '../contract/common.js';
import { catalogPageBody, catalogQuery } from '../contract/catalog.js';
import * as R from '../contract/responses.js';
import { SSE_HEADERS, SSE_QUERY, SSE_RESPONSE } from '../sse.js';
import { route, type RequestContext, type Route } from '../types.js';
import * as B from './sessionBodies.js';
import { sessionFeed } from './sessionFeed.js';

const writer = (context: RequestContext<unknown, unknown>) => ({ ledger: context.ledger, now: context.now });

const VIEWS = ['display', 'active', 'raw'] as const;
const GONE = { 410: { description: 'the session was deleted' } };
const WRITE_ERRORS = { 404: { description: 'no such session' }, 409: { description: 'refused: sealed, ended, another live turn, or a stale expectedRevision' }, ...GONE };
const DEFAULT_TTL = 30_000;
const IF_NONE_MATCH = { description: 'the ETag of a view seen before, a list of ETags, or *: 304 while one of them is current (weak comparison: W/"x" matches "x")' };

/** Sessions: the writer API and the views, one endpoint per operation. Views carry an ETag naming the revisions they were read at. */
export const sessionRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/sessions',
    tag: 'sessions',
    summary: 'Start a session',
    body: B.startBody,
    responses: {
      201: { description: 'started', schema: R.sessionStarted },
      200: { description: 'it existed already: nothing written', schema: R.sessionStarted },
      404: { description: 'no such parent session' },
      409: { description: 'a session of that id exists with other settings (parent, link, model, source, title)' },
      410: { description: 'a session of that id, or the parent, was deleted: it is never started again' },
    },
    handler: async (context) => {
      const result = await startSession(writer(context), context.body);
      return { status: result.created ? 201 : 200, body: result };
    },
  }),
  route({
    method: 'GET',
    path: '/sessions',
    tag: 'sessions',
    summary: 'One row per logical conversation, newest activity first, a page at a time',
    description: 'From the catalog read model. The cursor is a keyset on (lastActivity, rootId): a walk serves no conversation twice and serves every one whose activity does not change meanwhile; one with new activity moves to the top, so if not served yet it is served by a walk started again, not this one.',
    query: catalogQuery,
    responses: { 200: { description: 'a page of conversations and the cursor of the next (null: the last page)', schema: catalogPageBody }, 400: { description: 'a bad limit, cursor, live or since' } },
    handler: async ({ store, now, query }) => {
      const at = now();
      const db = await readModelsOf(store).ready('catalog');
      const since = query.since === undefined ? undefined : parseSince('since', query.since, at);
      return { body: catalogPage(db, { limit: query.limit, cursor: query.cursor ?? null, source: query.source, live: query.live === undefined ? undefined : query.live === 'true', since, now: at }) };
    },
  }),
  route({
    method: 'GET',
    path: '/sessions/:id',
    tag: 'sessions',
    summary: 'The conversation, by any of its ids, a unique id prefix (4+ characters) or its exact title',
    description: 'The ETag names the revision of every segment; If-None-Match answers 304. An id prefix or title matching several sessions is 409 ambiguous, naming the candidates.',
    headers: { 'If-None-Match': IF_NONE_MATCH },
    query: z.strictObject({ view: z.enum(VIEWS).optional().describe('display (default), active or raw') }),
    selector: true,
    responses: { 200: { description: 'the view', schema: R.conversation }, 304: { description: 'unchanged since the ETag' }, 404: { description: 'unknown id' }, 409: { description: 'an ambiguous prefix or title' }, ...GONE },
    handler: async ({ store, params, query, req }) => {
      const id = await resolveSessionIn(store, params.id!);
      const loaded = await loadConversation(store, id, { view: query.view ?? 'display' });
      const etag = viewEtag(loaded);
      if (noneMatchHolds(req.headers['if-none-match'], etag)) return { status: 304, headers: { etag } };
      return { body: viewToJson(loaded), headers: { etag } };
    },
  }),
  route({
    method: 'GET',
    path: '/sessions/:id/transcript',
    tag: 'sessions',
    summary: 'The display transcript as text',
    description: 'The ETag is the display view\'s (GET /sessions/:id); If-None-Match answers 304.',
    headers: { 'If-None-Match': IF_NONE_MATCH },
    selector: true,
    responses: { 200: { description: 'the transcript', contentType: 'text/plain' }, 304: { description: 'unchanged since the ETag' }, 404: { description: 'unknown id' }, ...GONE },
    handler: async ({ store, params, req, res }) => {
      const loaded = await loadConversation(store, await resolveSessionIn(store, params.id!), { view: 'display' });
      const etag = viewEtag(loaded);
      if (noneMatchHolds(req.headers['if-none-match'], etag)) return { status: 304, headers: { etag } };
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag });
      res.end(renderTranscript(loaded));
      return null;
    },
  }),
  route({
    method: 'GET',
    path: '/sessions/:id/events',
    tag: 'sessions',
    summary: "One conversation's events as Server-Sent Events, following it into new segments",
    description: `${SSE_QUERY.description} When the conversation is deleted (every segment the feed follows; deleting only the tip leaves it open) the feed sends \`event: error\` with data \`{type: "session_deleted", message}\` and ends; a reconnect is answered 410.`,
    sse: true,
    headers: SSE_HEADERS,
    query: SSE_QUERY.extend({ type: z.array(name).optional().describe('only these event types (repeatable)') }),
    responses: { ...SSE_RESPONSE, 404: { description: 'unknown id' }, ...GONE },
    handler: async (context) => {
      await sessionFeed(context);
      return null;
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/turns',
    tag: 'turns',
    summary: 'Begin a turn holding a lease on the session',
    body: B.beginTurnBody,
    responses: {
      201: { description: 'begun', schema: R.turnBegun },
      200: { description: 'a retry with the same turnId and owner: nothing new stored; the lease it holds, whatever the ttl asked (its leaseExpiresAt may be past)', schema: R.turnBegun },
      ...WRITE_ERRORS,
    },
    handler: async (context) => {
      const { ttl, expectedRevision, ...rest } = context.body;
      const result = await beginTurn(writer(context), context.params.id!, { ...rest, ttlMs: ttl ?? DEFAULT_TTL, expectedRevision: B.expectedOf(expectedRevision) });
      // a retry answered 201 like a grant, with a lease possibly expired (outside test, session 24)
      return { status: result.written === false ? 200 : 201, body: result };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/turns/:turn/renew',
    tag: 'turns',
    summary: "Renew a turn's lease",
    body: B.renewBody,
    responses: { 200: { description: 'renewed', schema: R.turnBegun }, ...WRITE_ERRORS },
    handler: async (context) => {
      const { ttl, expectedRevision } = context.body;
      return { body: await renewLease(writer(context), context.params.id!, context.params.turn!, { ttlMs: ttl ?? DEFAULT_TTL, expectedRevision: B.expectedOf(expectedRevision) }) };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/turns/:turn/end',
    tag: 'turns',
    summary: 'End a turn',
    body: B.endTurnBody,
    responses: { 200: { description: 'ended', schema: R.sessionWritten }, ...WRITE_ERRORS },
    handler: async (context) => {
      const { outcome, expectedRevision } = context.body;
      return { body: await endTurn(writer(context), context.params.id!, context.params.turn!, { outcome, expectedRevision: B.expectedOf(expectedRevision) }) };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/messages',
    tag: 'messages',
    summary: 'Append a message',
    description: 'OpenAI chat messages are accepted as they are: tool_calls, tool_call_id and name are aliases of toolCalls, toolCallId and toolName.',
    body: B.messageBody,
    responses: { 201: { description: 'stored', schema: R.messageAppended }, 200: { description: 'a retry with the same id: nothing new stored', schema: R.messageAppended }, ...WRITE_ERRORS },
    handler: async (context) => {
      const { turnId, expectedRevision, ...message } = context.body;
      const result = await appendMessage(writer(context), context.params.id!, message, { turnId, expectedRevision: B.expectedOf(expectedRevision) });
      return { status: result.written === false ? 200 : 201, body: result };
    },
  }),
  route({
    method: 'PATCH',
    path: '/sessions/:id/messages/:message',
    tag: 'messages',
    summary: 'Rewrite a message in place',
    body: B.rewriteBody,
    responses: { 200: { description: 'rewritten', schema: R.sessionWritten }, ...WRITE_ERRORS },
    handler: async (context) => {
      const { content, expectedRevision } = context.body;
      return { body: await rewriteMessage(writer(context), context.params.id!, context.params.message!, content, { expectedRevision: B.expectedOf(expectedRevision) }) };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/compact',
    tag: 'sessions',
    summary: 'Compact history through a message into a summary',
    body: B.compactBody,
    responses: { 200: { description: 'compacted, or a retry with the same summaryId: nothing new stored (written false)', schema: R.compacted }, ...WRITE_ERRORS },
    handler: async (context) => {
      const { through, summary, summaryId, expectedRevision } = context.body;
      return { body: await compactHistory(writer(context), context.params.id!, { throughMessageId: through, summary, summaryId, expectedRevision: B.expectedOf(expectedRevision) }) };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/compress',
    tag: 'sessions',
    summary: 'Continue the conversation in a new child segment',
    body: B.compressBody,
    responses: {
      201: { description: 'the new tip, and the id that resumes everything', schema: R.compressed },
      200: { description: 'a retry of a compression stored already: nothing new stored', schema: R.compressed },
      ...WRITE_ERRORS,
    },
    handler: async (context) => {
      const { summary, childId, expectedRevision } = context.body;
      const result = await compressSession(writer(context), context.params.id!, { summary, childId, expectedRevision: B.expectedOf(expectedRevision) });
      return { status: result.written ? 201 : 200, body: result };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/end',
    tag: 'sessions',
    summary: 'End the session',
    body: B.endSessionBody,
    responses: { 200: { description: 'ended', schema: R.sessionWritten }, ...WRITE_ERRORS },
    handler: async (context) => {
      const { reason, turnId, expectedRevision } = context.body;
      return { body: await endSession(writer(context), context.params.id!, { reason, turnId, expectedRevision: B.expectedOf(expectedRevision) }) };
    },
  }),
  route({
    method: 'POST',
    path: '/sessions/:id/reopen',
    tag: 'sessions',
    summary: 'Reopen an ended session, so it takes writes again (a harness resumed it)',
    body: B.reopenSessionBody,
    responses: {
      201: { description: 'reopened', schema: R.sessionWritten },
      200: { description: 'open already: nothing stored', schema: R.sessionWritten },
      ...WRITE_ERRORS,
    },
    handler: async (context) => {
      const result = await reopenSession(writer(context), context.params.id!, { expectedRevision: B.expectedOf(context.body.expectedRevision) });
      return { status: result.written ? 201 : 200, body: result };
    },
  }),
];

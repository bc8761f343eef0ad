import {
  appendMessage,
  beginTurn,
  checkViewName,
  compactHistory,
  compressSession,
  conversationEtag,
  endSession,
  endTurn,
  listConversations,
  loadConversation,
  renderTranscript,
  renewLease,
  rewriteMessage,
  startSession,
  viewToJson,
} from '@session-ledger/sessions';
import { invalidInput, isJsonObject, type JsonObject } from '@session-ledger/core';
import type { RequestContext, Route } from '../types.js';
import { expectedOf, objectBody, optionalString, requiredString, ttlOf } from './sessionBody.js';
import { sessionFeed } from './sessionFeed.js';

const writer = (context: RequestContext) => ({ ledger: context.ledger, now: context.now });

const LINKS = ['delegation', 'branch'];
const ROLES = ['user', 'assistant', 'tool', 'system'];

/** Sessions: the writer API and the views, one endpoint per operation. Views carry an ETag naming the revisions they were read at. */
export const sessionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/sessions',
    handler: async (context) => {
      const body = objectBody(context.body);
      const link = optionalString(body, 'link');
      if (link !== undefined && !LINKS.includes(link)) throw invalidInput(`link must be one of ${LINKS.join(', ')} (compress a session to make a compression child)`, 'link');
      const result = await startSession(writer(context), {
        id: optionalString(body, 'id'),
        parentId: optionalString(body, 'parentId'),
        link: link as 'delegation' | 'branch' | undefined,
        model: optionalString(body, 'model'),
        source: optionalString(body, 'source'),
        title: optionalString(body, 'title'),
      });
      return { status: result.created ? 201 : 200, body: result };
    },
  },
  {
    method: 'GET',
    path: '/sessions',
    handler: async ({ store, now }) => ({ body: await listConversations(store, { now: now() }) }),
  },
  {
    method: 'GET',
    path: '/sessions/:id',
    handler: async ({ store, params, query, req }) => {
      const view = checkViewName(query.get('view') ?? 'display');
      const loaded = await loadConversation(store, params.id!, { view });
      const etag = conversationEtag(loaded.segments);
      if (req.headers['if-none-match'] === etag) return { status: 304, headers: { etag } };
      return { body: viewToJson(loaded), headers: { etag } };
    },
  },
  {
    method: 'GET',
    path: '/sessions/:id/transcript',
    handler: async ({ store, params, res }) => {
      const loaded = await loadConversation(store, params.id!, { view: 'display' });
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag: conversationEtag(loaded.segments) });
      res.end(renderTranscript(loaded));
      return null;
    },
  },
  {
    method: 'GET',
    path: '/sessions/:id/events',
    handler: async (context) => {
      await sessionFeed(context);
      return null;
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/turns',
    handler: async (context) => {
      const body = objectBody(context.body);
      const result = await beginTurn(writer(context), context.params.id!, {
        ttlMs: ttlOf(body),
        owner: optionalString(body, 'owner'),
        turnId: optionalString(body, 'turnId'),
        expectedRevision: expectedOf(body),
      });
      return { status: 201, body: result };
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/turns/:turn/renew',
    handler: async (context) => {
      const body = objectBody(context.body);
      return { body: await renewLease(writer(context), context.params.id!, context.params.turn!, { ttlMs: ttlOf(body), expectedRevision: expectedOf(body) }) };
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/turns/:turn/end',
    handler: async (context) => {
      const body = objectBody(context.body);
      const outcome = optionalString(body, 'outcome');
      if (outcome !== undefined && !['completed', 'interrupted', 'failed'].includes(outcome)) throw invalidInput('outcome must be completed, interrupted or failed', 'outcome');
      return { body: await endTurn(writer(context), context.params.id!, context.params.turn!, { outcome: outcome as never, expectedRevision: expectedOf(body) }) };
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/messages',
    handler: async (context) => {
      const body = objectBody(context.body);
      const role = requiredString(body, 'role');
      if (!ROLES.includes(role)) throw invalidInput(`role must be one of ${ROLES.join(', ')}`, 'role');
      if (!('content' in body)) throw invalidInput('content is required (null for a tool-call-only reply)', 'content');
      const content = body.content === null ? null : requiredString(body, 'content');
      const toolCalls = body.toolCalls;
      if (toolCalls !== undefined && (!Array.isArray(toolCalls) || !toolCalls.every(isJsonObject))) throw invalidInput('toolCalls must be an array of objects', 'toolCalls');
      const result = await appendMessage(
        writer(context),
        context.params.id!,
        {
          id: optionalString(body, 'id'),
          role: role as 'user',
          content,
          toolCalls: toolCalls as JsonObject[] | undefined,
          toolCallId: optionalString(body, 'toolCallId'),
          toolName: optionalString(body, 'toolName'),
          timestamp: optionalString(body, 'timestamp'),
          finishReason: optionalString(body, 'finishReason'),
          reasoning: optionalString(body, 'reasoning'),
          tokenCounts: isJsonObject(body.tokenCounts) ? (body.tokenCounts as Record<string, number>) : undefined,
        },
        { turnId: optionalString(body, 'turnId'), expectedRevision: expectedOf(body) },
      );
      return { status: result.written === false ? 200 : 201, body: result };
    },
  },
  {
    method: 'PATCH',
    path: '/sessions/:id/messages/:message',
    handler: async (context) => {
      const body = objectBody(context.body);
      const content = body.content === null ? null : requiredString(body, 'content');
      return { body: await rewriteMessage(writer(context), context.params.id!, context.params.message!, content, { expectedRevision: expectedOf(body) }) };
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/compact',
    handler: async (context) => {
      const body = objectBody(context.body);
      return {
        body: await compactHistory(writer(context), context.params.id!, {
          throughMessageId: requiredString(body, 'through'),
          summary: requiredString(body, 'summary'),
          expectedRevision: expectedOf(body),
        }),
      };
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/compress',
    handler: async (context) => {
      const body = objectBody(context.body);
      const result = await compressSession(writer(context), context.params.id!, {
        summary: requiredString(body, 'summary'),
        childId: optionalString(body, 'childId'),
        expectedRevision: expectedOf(body),
      });
      return { status: 201, body: result };
    },
  },
  {
    method: 'POST',
    path: '/sessions/:id/end',
    handler: async (context) => {
      const body = objectBody(context.body);
      return { body: await endSession(writer(context), context.params.id!, { reason: optionalString(body, 'reason'), expectedRevision: expectedOf(body) }) };
    },
  },
];

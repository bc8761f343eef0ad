import { eventToJson, invalidInput, isJsonObject, newId, parseExpected, type JsonValue } from '@session-ledger/core';
import { appendRaw } from '@session-ledger/events';
import { resumePosition, streamSse } from '../sse.js';
import type { Route } from '../types.js';

const count = (text: string | null, fallback: number): number => {
  if (text === null) return fallback;
  if (!/^\d+$/.test(text)) throw invalidInput(`Not a whole number: ${text}`);
  return Number(text);
};

/** Raw streams: read, append (through the hash-chained ledger), $all, and the SSE feed. */
export const eventRoutes: Route[] = [
  {
    method: 'GET',
    path: '/streams/:stream',
    handler: async ({ store, params, query }) => {
      const from = query.get('from');
      const events = await store.readStream(params.stream!, {
        direction: query.get('direction') === 'backwards' ? 'backwards' : 'forwards',
        fromRevision: from === null ? undefined : BigInt(count(from, 0)),
        maxCount: count(query.get('max'), 1000),
      });
      return { body: events.map(eventToJson) };
    },
  },
  {
    method: 'POST',
    path: '/streams/:stream',
    handler: async ({ ledger, params, body }) => {
      if (!isJsonObject(body) || typeof body.type !== 'string' || !('data' in body)) {
        throw invalidInput('Body must be {"type": string, "data": JSON, "metadata"?: object, "id"?: uuid, "expectedRevision"?: ...}');
      }
      const expectedText = body.expectedRevision === undefined ? 'any' : String(body.expectedRevision);
      const expected = parseExpected(expectedText);
      if (expected === null) throw invalidInput(`Bad expectedRevision: ${expectedText}`);
      if (body.metadata !== undefined && !isJsonObject(body.metadata)) throw invalidInput('metadata must be an object');
      if (body.id !== undefined && typeof body.id !== 'string') throw invalidInput('id must be a string');
      const result = await appendRaw(ledger, {
        stream: params.stream!,
        id: body.id ?? newId(),
        type: body.type,
        data: body.data as JsonValue,
        metadata: body.metadata,
        expectedRevision: expected,
      });
      return { status: 201, body: { stream: params.stream, ...result } };
    },
  },
  {
    method: 'GET',
    path: '/all',
    handler: async ({ store, query }) => {
      const from = query.get('from');
      const events = await store.readAll({ fromPosition: from === null ? 'start' : BigInt(count(from, 0)), maxCount: count(query.get('max'), 1000) });
      return { body: events.map(eventToJson) };
    },
  },
  {
    method: 'GET',
    path: '/subscribe',
    handler: async ({ store, req, res, query }) => {
      const prefixes = query.getAll('prefix');
      const types = query.getAll('type');
      const subscription = store.subscribeToAll({
        fromPosition: resumePosition(req, query),
        filter: { streamNamePrefixes: prefixes, eventTypes: types },
      });
      await streamSse(req, res, subscription);
      return null;
    },
  },
];

import type { IncomingMessage, ServerResponse } from 'node:http';
import { eventToJson, invalidInput, isLedgerError, toJson, tooDeepToWrite, type RecordedEvent, type Subscription } from '@session-ledger/core';
import { FEED_FRAME_NAMES, FEED_FRAMES } from '@session-ledger/events';
import { z } from 'zod';
import { position } from './contract/common.js';
import type { ResponseSpec } from './types.js';
import { writer } from './drain.js';

/** How long a client waits before reconnecting (sent as `retry:`). */
export const SSE_RETRY_MS = 2000;

const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * One SSE field line. A value can never break out of its line: control characters (CR and LF
 * among them) are written as \uXXXX escapes, so a forged `\nid: …` stays inside the field.
 */
export const sseField = (field: string, value: string): string =>
  `${field}: ${value.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

/** The query every SSE route takes: where to resume. */
export const SSE_QUERY = z
  .strictObject({
    after: position
      .optional()
      .describe('resume after this commit position (exclusive), a whole number below 2^63; ignored when a Last-Event-ID header is sent (the header wins)'),
  })
  .describe(
    'Server-Sent Events. Each event carries `id:` (its commit position) and `event:` (its type); `retry:` is sent first. ' +
      'History is sent first, then one `event: caught-up` (data `{position}`: a JSON number, or a string past 2^53, as every position and revision in a JSON answer), then live events. A client that reconnects ' +
      'with `Last-Event-ID` (EventSource does so by itself) or `?after=POSITION` resumes right after that position and misses nothing; ' +
      'any whole number below 2^63 is a position to resume after (after the highest, 2^63 - 1, the stream is caught up at once). ' +
      'A client that does not read is not buffered for: the server waits for it.',
  );

export const SSE_HEADERS = {
  'Last-Event-ID': {
    description: 'resume after this commit position (sent by EventSource when it reconnects), a whole number below 2^63; wins over ?after',
    schema: position,
  },
};

export const SSE_RESPONSE: Record<number, ResponseSpec> = {
  200: { description: 'text/event-stream: history, one caught-up event, then live events', contentType: 'text/event-stream' },
  503: { description: 'too many subscribers; retry after the Retry-After seconds' },
};

/** The Last-Event-ID header's text; an empty one counts as none (EventSource sends none before its first event). */
const lastEventId = (req: IncomingMessage): string | undefined => {
  const header = req.headers['last-event-id'];
  const text = Array.isArray(header) ? header[0] : header;
  return text === '' ? undefined : text;
};

/**
 * The Last-Event-ID header wins over `?after`: when a request sends the header, its `?after` is
 * dropped before the query is parsed, so an empty or stale `?after` in a URL that EventSource keeps
 * reconnecting to cannot refuse a good header. The header alone decides (a malformed one is 400).
 */
export const dropOverriddenQuery = (req: IncomingMessage, search: URLSearchParams): void => {
  if (lastEventId(req) !== undefined) search.delete('after');
};

/** The position to resume after: the Last-Event-ID header, else `?after` (both exclusive); a malformed one is 400. */
export const resumeFrom = (req: IncomingMessage, query: { after?: bigint }): bigint | 'start' => {
  const text = lastEventId(req);
  if (text === undefined) return query.after ?? 'start';
  const parsed = position.safeParse(text.trim());
  if (!parsed.success) throw invalidInput(`Last-Event-ID must be a commit position (a whole number below 2^63): ${JSON.stringify(text)}`, 'Last-Event-ID');
  return parsed.data;
};

/**
 * Streams a subscription as Server-Sent Events: `id:` is the event's commit position, so a client that
 * reconnects with Last-Event-ID resumes right after the last event it saw. Caught-up is sent once,
 * when history has been delivered. The subscription is pulled one item at a time, only as fast as
 * the client reads, so each client costs one page of history and one socket buffer at most.
 */
export const streamSse = async (
  req: IncomingMessage,
  res: ServerResponse,
  subscription: Subscription,
  accept: (event: RecordedEvent) => boolean = () => true,
  /** An event after which the feed has nothing more to send (its conversation was deleted): the error frame it ends with. */
  ends?: (event: RecordedEvent) => { type: string; message: string } | null,
): Promise<void> => {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (req.method === 'HEAD') {
    await subscription.close();
    return void res.end();
  }
  const write = writer(res);
  const close = () => void subscription.close();
  res.once('close', close);
  const heartbeat = setInterval(() => {
    if (!res.writableNeedDrain && !res.destroyed) res.write(': keep-alive\n\n');
  }, 15_000);
  try {
    await write(`: session-ledger\nretry: ${SSE_RETRY_MS}\n\n`);
    let caughtUp = false;
    for await (const item of subscription) {
      if (res.destroyed) break;
      const end = item.kind === 'event' && ends ? ends(item.event) : null;
      if (end) {
        await write(`${sseField('event', FEED_FRAMES.error)}${sseField('data', toJson(end))}\n`);
        break;
      }
      if (item.kind === 'event' && accept(item.event)) {
        // A type that names the feed's own frames (refused by every raw surface, but stored before that, or
        // by a library caller) is sent unnamed (EventSource's `message`): it never passes for one; `data` has the type.
        const named = FEED_FRAME_NAMES.has(item.event.type) ? '' : sseField('event', item.event.type);
        await write(`${sseField('id', String(item.event.position))}${named}${sseField('data', toJson(eventToJson(item.event)))}\n`);
      } else if (item.kind === 'caught_up' && !caughtUp) {
        caughtUp = true;
        await write(`${sseField('event', FEED_FRAMES.caughtUp)}${sseField('data', toJson({ position: item.position }))}\n`);
      }
    }
  } catch (error) {
    // The same error `type` a JSON answer would carry (a value too deep to write out: store_unavailable).
    const known = tooDeepToWrite(error) ?? error;
    const frame = isLedgerError(known) ? { type: known.type, message: known.message } : { type: 'internal', message: (error as Error).message };
    if (!res.destroyed) res.write(`${sseField('event', FEED_FRAMES.error)}${sseField('data', toJson(frame))}\n`);
  } finally {
    clearInterval(heartbeat);
    res.off('close', close);
    res.end();
  }
};

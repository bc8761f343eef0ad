import type { ServerResponse, IncomingMessage } from 'node:http';
import { eventToJson, toJson, type RecordedEvent, type Subscription } from '@session-ledger/core';

/**
 * Streams a subscription as Server-Sent Events: `id:` is the event's commit position, so a client that
 * reconnects with Last-Event-ID resumes right after the last event it saw. Caught-up is a named event.
 */
export const streamSse = async (
  req: IncomingMessage,
  res: ServerResponse,
  subscription: Subscription,
  accept: (event: RecordedEvent) => boolean = () => true,
): Promise<void> => {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.write(': session-ledger\n\n');
  const close = () => void subscription.close();
  req.once('close', close);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  try {
    for await (const item of subscription) {
      if (res.destroyed) break;
      if (item.kind === 'event' && accept(item.event)) {
        res.write(`id: ${item.event.position}\nevent: ${item.event.type}\ndata: ${toJson(eventToJson(item.event))}\n\n`);
      } else if (item.kind === 'caught_up') {
        res.write(`event: caught-up\ndata: ${toJson({ position: item.position })}\n\n`);
      }
    }
  } catch (error) {
    if (!res.destroyed) res.write(`event: error\ndata: ${toJson({ message: (error as Error).message })}\n\n`);
  } finally {
    clearInterval(heartbeat);
    req.off('close', close);
    res.end();
  }
};

/** The position to resume after: Last-Event-ID header, else a `from` query parameter (exclusive). */
export const resumePosition = (req: IncomingMessage, query: URLSearchParams): bigint | 'start' => {
  const header = req.headers['last-event-id'];
  const text = (Array.isArray(header) ? header[0] : header) ?? query.get('after') ?? undefined;
  return text !== undefined && /^\d+$/.test(text) ? BigInt(text) : 'start';
};

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStore, Ledger } from '@session-ledger/core';

export interface ServiceContext {
  ledger: Ledger;
  store: EventStore;
  now: () => Date;
  /** Settings that route groups read (e.g. the memory mirror directory). */
  settings: Record<string, string | undefined>;
}

export interface RequestContext extends ServiceContext {
  params: Record<string, string>;
  query: URLSearchParams;
  req: IncomingMessage;
  res: ServerResponse;
  /** The parsed JSON body (null when there is none); malformed JSON is a 400 before the handler runs. */
  body: unknown;
}

/** A handler returns a reply, or null when it wrote the response itself (Server-Sent Events). */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path with :params, as in /sessions/:id/messages */
  path: string;
  handler: (context: RequestContext) => Promise<Reply | null>;
}

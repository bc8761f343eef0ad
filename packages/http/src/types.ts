import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventStore, Ledger } from '@session-ledger/core';
import type { z } from 'zod';

export interface ServiceContext {
  ledger: Ledger;
  store: EventStore;
  now: () => Date;
  /** Settings that route groups read (e.g. the memory mirror directory). */
  settings: Record<string, string | undefined>;
}

export interface RequestContext<Q = Record<string, unknown>, B = unknown> extends ServiceContext {
  params: Record<string, string>;
  /** The query, parsed by the route's query schema (unknown parameters are refused before the handler runs). */
  query: Q;
  req: IncomingMessage;
  res: ServerResponse;
  /** The body, parsed by the route's body schema; malformed JSON or unknown keys are a 400 before the handler runs. */
  body: B;
}

/** A handler returns a reply, or null when it wrote the response itself (Server-Sent Events, downloads). */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema (absent: not JSON, or no body). */
  schema?: z.ZodType;
  /** For non-JSON bodies: the media type (text/event-stream, text/plain, …), or each one the answer may have. */
  contentType?: string | readonly string[];
}

export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path with :params, as in /sessions/:id/messages */
  path: string;
  summary: string;
  description?: string;
  /** Tag that groups the route in the OpenAPI document. */
  tag: string;
  /** The query schema (a strict object; strings, or arrays of strings for repeatable parameters). Default: none. */
  query?: Q;
  /** The body schema; absent means the route takes no body. A missing body is parsed as `{}`. */
  body?: B;
  /** Request headers the route reads, for the OpenAPI document. */
  headers?: Record<string, { description: string; required?: boolean; schema?: z.ZodType }>;
  /** Server-Sent Events: counted against the subscriber limit; HEAD answers the headers only. */
  sse?: boolean;
  /** `:id` is resolved as a selector (a unique id prefix or an exact title, resolveSessionIn), as the document then says; elsewhere it is a session id. */
  selector?: true;
  responses: Record<number, ResponseSpec>;
  handler: (context: RequestContext<z.output<Q>, z.output<B>>) => Promise<Reply | null>;
}

export type Route = RouteSpec<z.ZodType, z.ZodType>;

/** Declares a route; the handler's query and body types come from its schemas. */
export const route = <Q extends z.ZodType = z.ZodType<Record<string, never>>, B extends z.ZodType = z.ZodType<undefined>>(spec: RouteSpec<Q, B>): Route =>
  spec as unknown as Route;

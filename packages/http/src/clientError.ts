import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { httpProblem, problemOf } from './problem.js';

/** Node's own refusals of a request it cannot parse, by its parser's code (431 for headers too large). */
const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request line or headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time'],
};

/** The latest response begun on each connection (HTTP/1.1 answers a connection's requests in order). */
const latest = new WeakMap<Socket, ServerResponse>();
/** Connections whose refusal is written or waiting: the parser reports every later byte again. */
const refused = new WeakSet<Socket>();

/** Called for every request: the response a refusal of the bytes after it must wait for. */
export const trackResponse = (res: ServerResponse): void => {
  if (res.socket) latest.set(res.socket, res);
};

/**
 * Node answers a request its parser refuses (a bad Content-Length, a path or headers over its limit)
 * before any route runs, with a bare status and no body; this answers it as every other 4xx: an
 * RFC 9457 problem naming why, then closes the connection (Node's parser cannot go on with it).
 * Bytes that do not parse after a whole request (Node's client sends a DELETE's body unframed) are
 * refused only once that request is answered: the refusal was written over its answer, so a
 * deletion or an append that was stored was answered 400 (outside test, session 33, helper-92 F1).
 * A response that closes the connection itself (an event stream's end) leaves the bytes unanswered.
 */
export const answerClientError = (error: Error & { code?: string }, socket: Socket): void => {
  if (refused.has(socket)) return;
  refused.add(socket);
  const [status, code, detail] = REFUSALS[error.code ?? ''] ?? [400, 'malformed_request', `The request is not valid HTTP/1.1 (${error.code ?? 'unparsable'})`];
  const refuse = (): void => void (socket.writable ? endWithProblem(socket, status, code, detail) : socket.destroy());
  const inFlight = latest.get(socket);
  if (inFlight === undefined || inFlight.writableFinished || inFlight.destroyed) return refuse();
  inFlight.once('close', refuse);
};

/** A problem written on the bare socket (no ServerResponse to write it through), then the connection closed. */
export const endWithProblem = (socket: Socket, status: number, code: string, detail: string, headers: Record<string, string> = {}): void => {
  const { body } = problemOf(httpProblem(status, code, detail));
  const text = JSON.stringify(body);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${body.title}\r\n${extra}Content-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
};

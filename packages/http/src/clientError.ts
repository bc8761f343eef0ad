import type { Socket } from 'node:net';
import { httpProblem, problemOf } from './problem.js';

/** Node's own refusals of a request it cannot parse, by its parser's code (431 for headers too large). */
const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request line or headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time'],
};

/**
 * Node answers a request its parser refuses (a bad Content-Length, a path or headers over its limit)
 * before any route runs, with a bare status and no body; this answers it as every other 4xx: an
 * RFC 9457 problem naming why, then closes the connection (Node's parser cannot go on with it).
 */
export const answerClientError = (error: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable) return void socket.destroy();
  const [status, code, detail] = REFUSALS[error.code ?? ''] ?? [400, 'malformed_request', `The request is not valid HTTP/1.1 (${error.code ?? 'unparsable'})`];
  endWithProblem(socket, status, code, detail);
};

/** A problem written on the bare socket (no ServerResponse to write it through), then the connection closed. */
export const endWithProblem = (socket: Socket, status: number, code: string, detail: string, headers: Record<string, string> = {}): void => {
  const { body } = problemOf(httpProblem(status, code, detail));
  const text = JSON.stringify(body);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${body.title}\r\n${extra}Content-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
};

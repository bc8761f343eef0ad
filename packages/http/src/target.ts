import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { httpProblem, problemOf } from './problem.js';

/** `http://authority/path?query` (RFC 9112 §3.2.2): what a client that speaks to a proxy sends. */
const ABSOLUTE = /^https?:\/\/([^/?#]*)([^#]*)$/i;

/** Header fields a request may carry once only: a second Host or Content-Type would be read by some peers and not by others. */
const SINGLE = new Set(['host', 'content-type']);

/** The methods some route answers (GET with HEAD), and OPTIONS: the answer to `OPTIONS *` (RFC 9110 §9.3.7). */
export const methodsServed = (routes: ReadonlyArray<{ method: string }>): string =>
  [...new Set([...routes.flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])), 'OPTIONS'])].join(', ');

/**
 * The request target in origin form (`/path?query`), whatever form the client sent (RFC 9112 §3.2):
 * - absolute form (`http://127.0.0.1:7411/health`): its authority replaces Host, as the RFC requires,
 *   so the Host allow-list judges the name the request really targets;
 * - asterisk form (`*`): only with OPTIONS, answered by the caller; null here;
 * - anything else that is not a path is 400.
 * A Host or Content-Type sent twice is 400 (RFC 9112 §3.2: more than one Host is 400).
 */
export const originForm = (req: IncomingMessage): string | null => {
  const raw = req.rawHeaders;
  for (let at = 0, seen = 0; at < raw.length; at += 2) {
    const name = raw[at]!.toLowerCase();
    if (!SINGLE.has(name)) continue;
    if (seen & (name === 'host' ? 1 : 2)) throw httpProblem(400, 'malformed_request', `The request sends ${name === 'host' ? 'Host' : 'Content-Type'} more than once`);
    seen |= name === 'host' ? 1 : 2;
  }
  const target = req.url ?? '/';
  if (target.startsWith('/')) return target;
  if (target === '*') {
    if (req.method === 'OPTIONS') return null;
    throw httpProblem(400, 'malformed_request', `The target * is for OPTIONS only, not ${req.method}`);
  }
  const absolute = ABSOLUTE.exec(target);
  if (!absolute || absolute[1] === '' || absolute[1]!.includes('@')) {
    throw httpProblem(400, 'malformed_request', 'The request target must be a path (/...) or an absolute http URL without user information');
  }
  req.headers.host = absolute[1]!;
  const rest = absolute[2]!;
  return rest.startsWith('/') ? rest : `/${rest}`;
};

/**
 * CONNECT (a tunnel through a proxy, RFC 9110 §9.3.6): this server is no proxy. Without an answer,
 * Node leaves the connection open with nothing sent; this answers 405 and closes it.
 */
export const answerConnect = (allow: string) => (_req: IncomingMessage, socket: Socket): void => {
  const { body } = problemOf(httpProblem(405, 'method_not_allowed', 'CONNECT is not served here: this server is not a proxy'));
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${allow}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
};

import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { endWithProblem } from './clientError.js';
import { httpProblem } from './problem.js';

/** `http://authority/path?query` (RFC 9112 §3.2.2): what a client that speaks to a proxy sends. */
const ABSOLUTE = /^https?:\/\/([^/?#]*)([^#]*)$/i;

/** Header fields a request may carry once only: a second Host or Content-Type would be read by some peers and not by others. */
const SINGLE = new Set(['host', 'content-type']);

/**
 * The most header fields a request may carry. Node would keep the first 2,000 (`maxHeadersCount`) and
 * drop the rest unsaid, Content-Length and Content-Type among them: the body went unread and a write
 * succeeded on its defaults (outside test, session 31, F0). The server counts every field itself
 * (createHttpService sets `maxHeadersCount` to 0; the 16 KB header size still bounds them) and refuses more.
 */
export const MAX_HEADER_FIELDS = 500;

/** The methods some route answers (GET with HEAD), and OPTIONS: the answer to `OPTIONS *` (RFC 9110 §9.3.7). */
export const methodsServed = (routes: ReadonlyArray<{ method: string }>): string =>
  [...new Set([...routes.flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])), 'OPTIONS'])].join(', ');

/**
 * The request target in origin form (`/path?query`), whatever form the client sent (RFC 9112 §3.2):
 * - absolute form (`http://127.0.0.1:7411/health`): its authority replaces Host, as the RFC requires,
 *   so the Host allow-list judges the name the request really targets;
 * - asterisk form (`*`): only with OPTIONS, answered by the caller; null here;
 * - anything else that is not a path is 400.
 * A Host or Content-Type sent twice is 400 (RFC 9112 §3.2: more than one Host is 400), and so is a
 * request without Host, and more than MAX_HEADER_FIELDS header fields are 431.
 */
export const originForm = (req: IncomingMessage): string | null => {
  if (req.rawHeaders.length / 2 > MAX_HEADER_FIELDS) {
    throw httpProblem(431, 'headers_too_large', `The request sends ${req.rawHeaders.length / 2} header fields; at most ${MAX_HEADER_FIELDS} are read`);
  }
  const seen = new Set<string>();
  for (let at = 0; at < req.rawHeaders.length; at += 2) {
    const name = req.rawHeaders[at]!;
    const lower = name.toLowerCase();
    if (!SINGLE.has(lower)) continue;
    if (seen.has(lower)) throw httpProblem(400, 'malformed_request', `The request sends ${name} more than once`);
    seen.add(lower);
  }
  // Node refused this itself with a bare 400 and no body; the server asks it not to (requireHostHeader: false),
  // so it is a problem like every other refusal (outside test, session 29, F2). HTTP/1.0 may omit Host,
  // but the Host allow-list (guard.ts) needs one to judge: the refusal names what is missing (session 31, F8).
  if (req.headers.host === undefined) {
    throw httpProblem(400, 'malformed_request', req.httpVersionMajor === 1 && req.httpVersionMinor >= 1
      ? 'An HTTP/1.1 request must send Host (RFC 9112 §3.2)'
      : 'The request must send Host: this server checks it against the names it answers to');
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
export const answerConnect = (allow: string) => (_req: IncomingMessage, socket: Socket): void =>
  endWithProblem(socket, 405, 'method_not_allowed', 'CONNECT is not served here: this server is not a proxy', { Allow: allow });

/**
 * Whether every expectation in the field is 100-continue, the only one HTTP defines (RFC 9110
 * §10.1.1; the field is a list, its tokens case-insensitive). Node's own test finds `100-continue`
 * anywhere in the value, so `100-continue, foo` and `foo-100-continue` were served as if only
 * 100-continue had been asked (outside test, session 30).
 */
const onlyContinue = (expect: string): boolean => expect.split(',').every((expectation) => expectation.trim().toLowerCase() === '100-continue');

export const checkExpectation = (req: IncomingMessage): void => {
  const expect = req.headers.expect;
  if (expect !== undefined && !onlyContinue(expect)) {
    throw httpProblem(417, 'expectation_failed', 'The request expects something this server does not do: only Expect: 100-continue is served');
  }
};

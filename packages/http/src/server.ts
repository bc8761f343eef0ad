import { answerClientError, trackResponse } from './clientError.js';
import { createServer as createNodeServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { invalidInput, toJson } from '@session-ledger/core';
import { isWebPath, serveWeb, WEB_METHODS } from '@session-ledger/web';
import { endJson, JSON_TYPE, PROBLEM_TYPE } from './answer.js';
import { hasBody, readJsonBody } from './body.js';
import { noQuery } from './contract/common.js';
import { parseBy, queryObject } from './contract/validate.js';
import { createGuard, type GuardOptions } from './guard.js';
import { answerConnect, checkExpectation, methodsServed, originForm } from './target.js';
import { httpProblem, problemOf } from './problem.js';
import { createRouter } from './router.js';
import { dropOverriddenQuery } from './sse.js';
import { ROUTES } from './routes/index.js';
import { localSlots, type SubscriberSlots } from './subscriberSlots.js';
import { checkServiceOptions } from './serviceOptions.js';
import type { ServiceContext } from './types.js';

export { isLoopback } from './loopback.js';

export interface HttpServiceOptions extends ServiceContext, GuardOptions {
  /** Required to bind anything but loopback; when set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Server-Sent Events clients served at once; one more is answered 503 with Retry-After (default 64). */
  maxSubscribers?: number;
  /** Where the limit is counted: default, in this process (`maxSubscribers`); `serve --workers N` passes the primary's. */
  subscriberSlots?: SubscriberSlots;
}

export const DEFAULT_MAX_SUBSCRIBERS = 64;

/** `Authorization: Bearer <token>`, the scheme in any case (RFC 9110: schemes are case-insensitive). */
const BEARER = /^bearer +/i;

const authorized = (header: string | undefined, token: string): boolean => {
  const scheme = header === undefined ? null : BEARER.exec(header);
  const given = Buffer.from(scheme && header ? header.slice(scheme[0].length) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
};

/**
 * The query, refused (400) where a name or value is not valid percent-encoding of UTF-8: URLSearchParams
 * would read `%ED%A0%80` as U+FFFD and `%ZZ` as itself, so a search or filter would run on text the
 * client never sent. The same rule as a path segment's (router.ts).
 */
const checkedQuery = (query: string): URLSearchParams => {
  if (query.includes('%')) {
    for (const part of query.split(/[&=]/)) {
      try {
        decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        throw invalidInput(`The query is not valid percent-encoding of UTF-8: ${JSON.stringify(part.slice(0, 100))}`, 'query');
      }
    }
  }
  return new URLSearchParams(query);
};

/** The raw target split by hand: `new URL` would read `//host/x` as another host. No `?`: no search (null). */
const splitTarget = (target: string): { path: string; search: URLSearchParams | null } => {
  const mark = target.indexOf('?');
  return mark < 0 ? { path: target, search: null } : { path: target.slice(0, mark), search: checkedQuery(target.slice(mark + 1)) };
};

const NO_HEADERS: Record<string, string> = {};

/** How much of an unknown path a 404 repeats: enough to see the mistake, not an echo of whatever was sent. */
const PATH_SHOWN = 120;

/** A handler's answer: JSON with its length (answer.ts), or no body (204, 304). */
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void => {
  if (res.headersSent) return void res.end();
  if (body !== undefined) return endJson(res, status, toJson(body), JSON_TYPE, headers);
  res.writeHead(status, headers);
  res.end();
};

/** The HTTP service: the guard, one router, one schema per query and body, one error mapping (RFC 9457 problems). */
export const createHttpService = (options: HttpServiceOptions): Server => {
  checkServiceOptions(options);
  const route = createRouter(ROUTES);
  const served = methodsServed(ROUTES);
  const guard = createGuard(options);
  const slots = options.subscriberSlots ?? localSlots(options.maxSubscribers ?? DEFAULT_MAX_SUBSCRIBERS);
  const { ledger, store, now, settings } = options;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const target = originForm(req);
    guard.check(req);
    checkExpectation(req);
    if (target === null) {
      res.writeHead(204, { allow: served });
      return void res.end();
    }
    const method = req.method ?? 'GET';
    const { path, search } = splitTarget(target);
    // The browser's page and assets (no ledger data, so no token), past the Host check.
    if (serveWeb(method, path, res)) return;
    // The page's paths answer OPTIONS like the API's, and 405 to a method they do not take.
    const { match, allowed } = isWebPath(path) ? { match: null, allowed: WEB_METHODS } : route(method, path);
    if (method === 'OPTIONS' && allowed.length > 0) {
      res.writeHead(204, { allow: allowed.join(', '), ...guard.corsHeaders(req, { allow: allowed }) });
      return void res.end();
    }
    if (options.token !== undefined && !authorized(req.headers.authorization, options.token)) {
      throw httpProblem(401, 'unauthorized', 'A bearer token is required', { 'www-authenticate': 'Bearer realm="session-ledger"' });
    }
    if (!match) {
      if (allowed.length > 0) throw httpProblem(405, 'method_not_allowed', `${method} is not allowed here: use ${allowed.join(', ')}`, { allow: allowed.join(', ') });
      throw httpProblem(404, 'not_found', `No route for ${method} ${path.length > PATH_SHOWN ? `${path.slice(0, PATH_SHOWN)}…` : path}`);
    }
    const spec = match.route;
    if (spec.sse && search !== null) dropOverriddenQuery(req, search);
    // A route without a query schema, asked without a query, has the empty query: no parse
    // (benchmark row "group commit: HTTP appends, 32 keep-alive clients").
    const query = !spec.query && search === null ? {} : parseBy(spec.query ?? noQuery, queryObject(spec.query ?? noQuery, search ?? new URLSearchParams()), 'query');
    // DELETE's body is read too: an option sent there ({"lineage": "tip"}) would otherwise be dropped
    // and the deletion go ahead on the query's defaults (outside test, session 21).
    // Expect: 100-continue is answered only now, past every check a client could fail before sending its body.
    // A GET's or HEAD's body is refused unread: its options ({"format": "jsonl"}) were dropped and the
    // answer given on the query's defaults (outside test, session 27).
    const reading = method !== 'GET' && method !== 'HEAD';
    const raw = reading ? await readJsonBody(req, req.headers.expect === undefined ? undefined : () => res.writeContinue()) : undefined;
    if (!spec.body && (raw !== undefined || (!reading && hasBody(req)))) {
      throw httpProblem(400, 'invalid_input', `${method} ${spec.path} takes no body${spec.query ? ': its options go in the query' : ''}`);
    }
    const body = spec.body ? parseBy(spec.body, raw === undefined ? {} : raw, 'body') : undefined;
    if (spec.sse) {
      const granted = slots.acquire();
      if (!(granted === true || (granted !== false && (await granted)))) {
        throw httpProblem(503, 'too_many_subscribers', `${slots.max} event streams are open already; retry later`, { 'retry-after': '5' });
      }
      // A client gone while a shared slot was asked for: its close has fired already.
      if (res.destroyed) return void slots.release();
      res.once('close', () => slots.release());
    }
    // A context of one shape, not a spread of the options (benchmark row "group commit: HTTP appends": ~2%).
    const reply = await spec.handler({ ledger, store, now, settings, params: match.params, query, req, res, body });
    if (reply) send(res, reply.status ?? 200, reply.body, reply.headers ?? NO_HEADERS);
  };

  // Host is checked by originForm and the guard, whose refusals are problems; Node's own is a bare 400.
  const server = createNodeServer({ requireHostHeader: false }, async (req, res) => {
    trackResponse(res);
    // A browser must not read a JSON answer or a transcript as a script or a page.
    res.setHeader('x-content-type-options', 'nosniff');
    for (const [name, value] of Object.entries(guard.corsHeaders(req, null))) res.setHeader(name, value);
    try {
      await handle(req, res);
    } catch (error) {
      const problem = problemOf(error);
      if (res.headersSent) return void res.end();
      endJson(res, problem.status, toJson(problem.body), PROBLEM_TYPE, problem.headers);
    }
  });
  // Every header field is parsed and counted (originForm refuses more than MAX_HEADER_FIELDS): Node's limit drops the rest unsaid.
  server.maxHeadersCount = 0;
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect(served));
  // Node would send 100 Continue before any route ran: the request goes on as any other, and
  // readJsonBody sends it when the body is about to be read (a 403, 404, 415 or 413 comes first).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  // Any other expectation: Node would answer 417 itself, bare and before the Host check; checkExpectation answers it.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  return server;
};

import { createServer as createNodeServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { isLedgerError, ledgerError, toJson } from '@session-ledger/core';
import { readJsonBody } from './body.js';
import { createRouter } from './router.js';
import { ROUTE_GROUPS } from './routes/index.js';
import { HTTP_STATUSES } from './statuses.js';
import type { ServiceContext } from './types.js';

export interface HttpServiceOptions extends ServiceContext {
  /** Required to bind anything but loopback; when set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || host.startsWith('127.');

const authorized = (header: string | undefined, token: string): boolean => {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
};

/** The HTTP service: every route group in routes/, one error mapping, JSON in and out. */
export const createHttpService = (options: HttpServiceOptions): Server => {
  const route = createRouter(ROUTE_GROUPS.flat());
  return createNodeServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent) return void res.end();
      const text = body === undefined ? '' : toJson(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(text);
    };
    try {
      if (options.token !== undefined && !authorized(req.headers.authorization, options.token)) {
        throw ledgerError('unauthorized', 'A bearer token is required', {});
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const { match, allowed } = route(req.method ?? 'GET', url.pathname);
      if (!match) {
        if (allowed.length > 0) return send(405, { error: { type: 'method_not_allowed', message: `Use ${allowed.join(', ')}` } }, { allow: allowed.join(', ') });
        return send(404, { error: { type: 'not_found', message: `No route for ${req.method} ${url.pathname}` } });
      }
      const body = req.method === 'GET' || req.method === 'DELETE' ? null : await readJsonBody(req);
      const reply = await match.route.handler({ ...options, params: match.params, query: url.searchParams, req, res, body });
      if (reply) send(reply.status ?? 200, reply.body, reply.headers);
    } catch (error) {
      if (isLedgerError(error)) return send(HTTP_STATUSES[error.type], { error: error.toJSON() });
      send(500, { error: { type: 'internal', message: error instanceof Error ? error.message : String(error) } });
    }
  });
};

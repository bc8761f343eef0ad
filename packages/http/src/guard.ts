import type { IncomingMessage } from 'node:http';
import { hostNames } from './loopback.js';
import { httpProblem } from './problem.js';

export interface GuardOptions {
  /** The address the server was asked to bind (its Host is allowed, with the port, in every spelling of it: `hostNames`). */
  host?: string;
  /** More Host header values to accept: `name` (bare, as a reverse proxy passes it on, or with the port this server listens on), `name:port`, or `*` (any). */
  allowedHosts?: string[];
  /** Origins (`https://app.example`) allowed to make cross-origin requests; CORS answers only for these. `*`: any. */
  corsOrigins?: string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What protects a laptop's server from web pages: the Host allow-list (DNS rebinding), the Origin check
 * on state-changing requests (cross-site writes), Fetch Metadata on reads (a foreign page's requests
 * other than navigations), and CORS headers only for configured origins.
 */
export const createGuard = (options: GuardOptions) => {
  const extra = (options.allowedHosts ?? []).map((host) => host.toLowerCase());
  const cors = new Set(options.corsOrigins ?? []);

  const anyHost = extra.includes('*');

  const allowedFor = (port: number, localAddress: string | undefined): Set<string> => {
    const names = [...LOOPBACK_NAMES];
    if (options.host) names.push(...hostNames(options.host));
    if (localAddress) names.push(...hostNames(localAddress));
    const withPort = (name: string) => /:\d+$/.test(name) && !name.endsWith(']');
    // An allowed name without a port is also taken bare: a reverse proxy passes on the Host the browser
    // sent (`proxy.example`, its own default port), never this server's port.
    const configured = extra.flatMap((name) => (withPort(name) ? [name] : [name, `${name}:${port}`]));
    return new Set([...names.flatMap((name) => (withPort(name) ? [name] : [`${name}:${port}`, ...(port === 80 ? [name] : [])])), ...configured]);
  };
  /**
   * The allowed Host values per local address and port, built once each instead of per request
   * (benchmark row "group commit: HTTP appends, 32 keep-alive clients": 2% of the server's CPU).
   */
  const allowedByLocal = new Map<string, Set<string>>();

  const hostAllowed = (req: IncomingMessage): boolean => {
    const given = req.headers.host?.toLowerCase();
    if (given === undefined) return false;
    if (anyHost) return true;
    const port = req.socket.localPort ?? 0;
    const local = `${req.socket.localAddress ?? ''} ${port}`;
    let allowed = allowedByLocal.get(local);
    if (!allowed) allowedByLocal.set(local, (allowed = allowedFor(port, req.socket.localAddress)));
    return allowed.has(given);
  };

  const corsAllows = (origin: string): boolean => cors.has('*') || cors.has(origin);

  const sameOrigin = (origin: string, req: IncomingMessage): boolean => {
    try {
      const url = new URL(origin);
      // https: the page came through a TLS-terminating proxy that passed its Host on (--allowed-host).
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === req.headers.host?.toLowerCase();
    } catch {
      return false;
    }
  };

  return {
    /** Throws 403 for a Host that is not this server's, and for a cross-origin write from an origin not configured. */
    check: (req: IncomingMessage): void => {
      if (!hostAllowed(req)) {
        throw httpProblem(403, 'host_not_allowed', `Host ${JSON.stringify(req.headers.host ?? '')} is not allowed: use a loopback name or the bound address (the server can be told to allow more hosts)`);
      }
      if (!STATE_CHANGING.has(req.method ?? '')) {
        // Fetch Metadata: a read a browser makes for another site's page (fetch, an <img>, a form's GET)
        // is refused unless it is a navigation (a link followed) or from a CORS origin given. Such reads
        // cannot see the answer, but could make the server work: a foreign page's no-cors GET /search
        // held every search for minutes (outside test, session 35, helper-96 F1).
        const site = req.headers['sec-fetch-site'];
        if ((site === 'cross-site' || site === 'same-site') && req.headers['sec-fetch-mode'] !== 'navigate') {
          const from = req.headers.origin;
          if (!(from !== undefined && corsAllows(from)) && !cors.has('*')) {
            throw httpProblem(403, 'origin_not_allowed', `A ${site} request from a web page may not read here, only a link followed (the server can be told to allow an origin)`);
          }
        }
        return;
      }
      const origin = req.headers.origin;
      if (origin === undefined) {
        // A browser that sent no Origin still says where the request comes from.
        const site = req.headers['sec-fetch-site'];
        if (site === 'cross-site' || site === 'same-site') throw httpProblem(403, 'origin_not_allowed', `A ${site} request from a browser may not change anything here`);
        return;
      }
      if (!sameOrigin(origin, req) && !corsAllows(origin)) {
        throw httpProblem(403, 'origin_not_allowed', `Requests from origin ${JSON.stringify(origin)} may not change anything here (the server can be told to allow this origin)`);
      }
    },
    /** CORS response headers for an allowed cross-origin request (none when CORS is not configured for it). */
    corsHeaders: (req: IncomingMessage, preflight: { allow: string[] } | null): Record<string, string> => {
      const origin = req.headers.origin;
      if (origin === undefined || !corsAllows(origin)) return {};
      const headers: Record<string, string> = {
        'access-control-allow-origin': origin,
        vary: 'Origin',
        'access-control-expose-headers': 'ETag, X-Export-Digest, Retry-After',
      };
      if (preflight) {
        headers['access-control-allow-methods'] = preflight.allow.join(', ');
        headers['access-control-allow-headers'] = 'Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID';
        headers['access-control-max-age'] = '600';
      }
      return headers;
    },
  };
};

import { invalidInput } from '@session-ledger/core';
import { NO_CONTROL } from './contract/common.js';
import { PATH_PARAMETERS } from './contract/pathParameters.js';
import type { Route } from './types.js';

interface Compiled {
  route: Route;
  pattern: RegExp;
  names: string[];
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

const decode = (raw: string, name: string): string => {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw invalidInput(`The path segment for ${name} is not valid percent-encoding: ${JSON.stringify(raw)}`, name);
  }
  if (!NO_CONTROL.test(value)) throw invalidInput(`The path segment for ${name} contains control characters`, name);
  const parsed = PATH_PARAMETERS[name]?.safeParse(value);
  if (parsed && !parsed.success) throw invalidInput(`The path segment for ${name} ${parsed.error.issues[0]!.message}: ${JSON.stringify(value)}`, name);
  return value;
};

/**
 * A path's first segment and number of segments (a trailing slash dropped): a route's pattern can
 * only match paths with its own. A route whose first segment is a parameter or holds a regular
 * expression character (`.`) has no key and is tried on every path.
 */
const keyOf = (path: string): string => {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  let slashes = 0;
  for (let at = trimmed.indexOf('/'); at >= 0; at = trimmed.indexOf('/', at + 1)) slashes += 1;
  const second = trimmed.indexOf('/', 1);
  return `${slashes} ${trimmed.slice(1, second < 0 ? trimmed.length : second)}`;
};

const routeKey = (path: string): string | null => (/^\/[A-Za-z0-9_-]*(\/|$)/.test(path) ? keyOf(path) : null);

/**
 * Matches method and path against the routes. HEAD runs the GET route (Node sends no body);
 * `allowed` lists every method the path answers (HEAD and OPTIONS included), for 405 and OPTIONS:
 * it is empty when a route matched a method other than OPTIONS.
 */
export const createRouter = (routes: Route[]) => {
  const compiled: Compiled[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/:([A-Za-z]+)/g, (_all, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, pattern: new RegExp(`^${source}/?$`), names };
  });
  // The routes each key can match, in the routes' order (benchmark row "group commit: HTTP appends":
  // ~2% of the server's CPU went to trying every pattern on every request).
  const keys = compiled.map(({ route }) => routeKey(route.path));
  const anyKey = compiled.filter((_, index) => keys[index] === null);
  const byKey = new Map<string, Compiled[]>();
  for (const key of keys) if (key !== null && !byKey.has(key)) byKey.set(key, compiled.filter((_, index) => keys[index] === key || keys[index] === null));
  return (method: string, path: string): { match: Match | null; allowed: string[] } => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allowed = new Set<string>();
    let match: Match | null = null;
    for (const { route, pattern, names } of byKey.get(keyOf(path)) ?? anyKey) {
      const found = pattern.exec(path);
      if (!found) continue;
      allowed.add(route.method);
      if (route.method === 'GET') allowed.add('HEAD');
      if (match || route.method !== wanted) continue;
      const params: Record<string, string> = {};
      names.forEach((name, index) => (params[name] = decode(found[index + 1]!, name)));
      match = { route, params };
      // A match answers the request: `allowed` is only read for OPTIONS and when nothing matched.
      if (method !== 'OPTIONS') return { match, allowed: [] };
    }
    if (allowed.size > 0) allowed.add('OPTIONS');
    return { match, allowed: [...allowed] };
  };
};

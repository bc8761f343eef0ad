import { invalidInput } from '@session-ledger/core';
import { NO_CONTROL } from './contract/common.js';
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
  return value;
};

/**
 * Matches method and path against the routes. HEAD runs the GET route (Node sends no body);
 * `allowed` lists every method the path answers (HEAD and OPTIONS included), for 405 and OPTIONS.
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
  return (method: string, path: string): { match: Match | null; allowed: string[] } => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allowed = new Set<string>();
    let match: Match | null = null;
    for (const { route, pattern, names } of compiled) {
      const found = pattern.exec(path);
      if (!found) continue;
      allowed.add(route.method);
      if (route.method === 'GET') allowed.add('HEAD');
      if (match || route.method !== wanted) continue;
      const params: Record<string, string> = {};
      names.forEach((name, index) => (params[name] = decode(found[index + 1]!, name)));
      match = { route, params };
    }
    if (allowed.size > 0) allowed.add('OPTIONS');
    return { match, allowed: [...allowed] };
  };
};

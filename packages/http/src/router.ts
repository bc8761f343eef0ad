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

/** Matches method and path against the routes; `allowed` lists the methods of a path that matched otherwise. */
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
    const allowed: string[] = [];
    for (const { route, pattern, names } of compiled) {
      const found = pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      names.forEach((name, index) => (params[name] = decodeURIComponent(found[index + 1]!)));
      return { match: { route, params }, allowed };
    }
    return { match: null, allowed };
  };
};

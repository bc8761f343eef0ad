import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const ESDB_SCHEMES = new Set(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']);

const schemeOf = (url: string): string => {
  const colon = url.indexOf(':');
  return colon > 0 ? url.slice(0, colon).toLowerCase() : '';
};

/** The canonical path of a file that may not exist yet: its nearest existing ancestor resolved, the rest appended. */
const canonicalPath = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(canonicalPath(parent), basename(path));
  }
};

/** A SQLite file: its device and inode when it exists (hard links, symlinks, any spelling), else its canonical path. */
const sqliteIdentity = (url: string): string => {
  const file = resolve(url.slice(url.indexOf(':') + 1).split('?', 1)[0]!);
  try {
    const stat = statSync(file);
    return `inode:${stat.dev}:${stat.ino}`;
  } catch {
    return `path:${canonicalPath(file)}`;
  }
};

/** An EventStoreDB/KurrentDB connection string: its hosts (lowercase, default port 2113, sorted), whatever the scheme spelling, credentials or options. */
const esdbIdentity = (url: string): string => {
  const authority = url.slice(url.indexOf('://') + 3).split(/[/?]/, 1)[0]!;
  const hosts = authority.slice(authority.lastIndexOf('@') + 1).toLowerCase().split(',');
  return `esdb:${hosts.map((host) => (/:\d+$/.test(host) ? host : `${host}:2113`)).sort().join(',')}`;
};

/**
 * Whether two store URLs name one store: the same SQLite file by another path (compared by realpath
 * and device and inode), or the same EventStoreDB hosts. `memory:` is a new store each time it is opened.
 */
export const sameStore = (a: string, b: string): boolean => {
  if (a.trim() === b.trim()) return true;
  const [left, right] = [schemeOf(a), schemeOf(b)];
  if (left === 'sqlite' && right === 'sqlite') return sqliteIdentity(a) === sqliteIdentity(b);
  if (ESDB_SCHEMES.has(left) && ESDB_SCHEMES.has(right)) return esdbIdentity(a) === esdbIdentity(b);
  return false;
};

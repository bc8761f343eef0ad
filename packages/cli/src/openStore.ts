import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { createMemoryStore, invalidInput, traced, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';

export interface OpenOptions {
  /** The command writes: a missing SQLite file may be created. Read-only commands never create one. */
  write: boolean;
}

type Opener = (rest: string, url: URL | null, options: OpenOptions) => Promise<EventStore>;

const sqliteOpener: Opener = async (rest, _url, options) => {
  const [path, query = ''] = rest.split('?', 2) as [string, string?];
  if (!path) throw invalidInput('sqlite: needs a file path, as in sqlite:./ledger.sqlite');
  const params = new URLSearchParams(query);
  const durability = params.get('durability') ?? params.get('synchronous') ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') throw invalidInput(`Unknown durability: ${durability} (normal or full)`);
  const file = resolve(path);
  if (options.write) mkdirSync(join(file, '..'), { recursive: true });
  return openSqliteStore(file, { durability: durability.toLowerCase() as 'normal' | 'full', create: options.write });
};

/** EventStoreDB/KurrentDB: the whole URL goes to the client as its connection string (TLS options included). */
const eventStoreDbOpener =
  (scheme: string): Opener =>
  async (rest) => {
    // Loaded on demand: the gRPC client costs a noticeable part of every command's start-up.
    const { openEventStoreDbStore } = await import('@session-ledger/store-eventstoredb');
    return openEventStoreDbStore(`${scheme}:${rest}`);
  };

/** Store URL schemes. An adapter package adds its scheme here. */
const OPENERS: Record<string, Opener> = {
  sqlite: sqliteOpener,
  memory: async () => createMemoryStore(),
  esdb: eventStoreDbOpener('esdb'),
  'esdb+discover': eventStoreDbOpener('esdb+discover'),
  kurrentdb: eventStoreDbOpener('kurrentdb'),
  'kurrentdb+discover': eventStoreDbOpener('kurrentdb+discover'),
};

export const defaultStoreUrl = (env: NodeJS.ProcessEnv = process.env): string => {
  if (env.SESSION_LEDGER_STORE) return env.SESSION_LEDGER_STORE;
  const home = env.SESSION_LEDGER_HOME ?? join(homedir(), '.session-ledger');
  return `sqlite:${join(home, 'ledger.sqlite')}`;
};

export const openStore = async (url: string, options: OpenOptions): Promise<EventStore> => {
  const colon = url.indexOf(':');
  const scheme = colon > 0 ? url.slice(0, colon).toLowerCase() : '';
  const opener = OPENERS[scheme];
  if (!opener) {
    throw invalidInput(`Unknown store URL scheme in "${url}" (use ${Object.keys(OPENERS).map((s) => `${s}:`).join(', ')})`);
  }
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  // Every surface (CLI, HTTP, migrate) opens its stores here, so every store call is traced.
  return traced(await opener(url.slice(colon + 1), parsed, options));
};

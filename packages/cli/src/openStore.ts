import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { createMemoryStore, invalidInput, makeFolder, traced, type EventStore } from '@session-ledger/core';
import { attachReadModels, DEFAULT_READ_MODELS, inlineReadModels, readModelsOf, withSubscribedReadModels, type Progress } from '@session-ledger/read-models';
import { openSqliteStore, type MigrationProgress } from '@session-ledger/store-sqlite';

export interface OpenOptions {
  /** The command writes: a missing SQLite file may be created. Read-only commands never create one. */
  write: boolean;
  /** Told how a read model's catch-up or rebuild advances (a progress bar on a terminal). */
  onProgress?: Progress;
  /** Told how a migration of the file advances (SQLite: every event copied or hashed), a bar on a terminal. */
  onMigration?: MigrationProgress;
}

type Opener = (rest: string, url: URL | null, options: OpenOptions) => Promise<EventStore>;

/** A sqlite: URL's parameters; `synchronous` is an alias of `durability`. */
const SQLITE_PARAMS = new Set(['durability', 'synchronous']);

/**
 * An unknown or repeated parameter is bad input: `?durabilty=full` (a typo) wrote at the weaker
 * default without a word, and `?durability=full&durability=normal` left which one counted unsaid.
 */
const checkSqliteParams = (params: URLSearchParams): void => {
  const keys = [...params.keys()];
  for (const key of keys) {
    if (!SQLITE_PARAMS.has(key)) throw invalidInput(`Unknown sqlite: store parameter ${JSON.stringify(key)} (the one parameter is durability=normal|full)`, 'store');
  }
  if (keys.length > 1) throw invalidInput(`The sqlite: store URL gives durability ${keys.length} times`, 'store');
};

const sqliteOpener: Opener = async (rest, _url, options) => {
  const [path, query = ''] = rest.split('?', 2) as [string, string?];
  if (!path) throw invalidInput('sqlite: needs a file path, as in sqlite:./ledger.sqlite');
  const params = new URLSearchParams(query);
  checkSqliteParams(params);
  const durability = params.get('durability') ?? params.get('synchronous') ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') throw invalidInput(`Unknown durability: ${durability} (normal or full)`);
  const file = resolve(path);
  if (options.write) makeFolder(join(file, '..'));
  // The read models (the session catalog) are kept inline: in the append's own transaction.
  const { hook, readModels } = inlineReadModels(DEFAULT_READ_MODELS, { onProgress: options.onProgress });
  const store = openSqliteStore(file, { durability: durability.toLowerCase() as 'normal' | 'full', create: options.write, onCommit: hook, onMigration: options.onMigration });
  return attachReadModels(store, readModels);
};

/** Where the read models of a server store live: a local SQLite file per store URL, beside the default ledger. */
const localReadModelsFile = (url: string, env: NodeJS.ProcessEnv = process.env): string => {
  const home = env.SESSION_LEDGER_HOME ?? join(homedir(), '.session-ledger');
  return join(home, 'read-models', `${createHash('sha256').update(url).digest('hex').slice(0, 16)}.sqlite`);
};

/** EventStoreDB/KurrentDB: the whole URL goes to the client as its connection string (TLS options included). */
const eventStoreDbOpener =
  (scheme: string): Opener =>
  async (rest) => {
    // Loaded on demand: the gRPC client costs a noticeable part of every command's start-up.
    const { openEventStoreDbStore } = await import('@session-ledger/store-eventstoredb');
    const url = `${scheme}:${rest}`;
    return withSubscribedReadModels(await openEventStoreDbStore(url), localReadModelsFile(url));
  };

/** Store URL schemes. An adapter package adds its scheme here. */
const OPENERS: Record<string, Opener> = {
  sqlite: sqliteOpener,
  memory: async () => withSubscribedReadModels(createMemoryStore(), ':memory:'),
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
  const store = await opener(url.slice(colon + 1), parsed, options);
  return attachReadModels(traced(store), readModelsOf(store));
};

import { EventStoreDBClient } from '@eventstore/db-client';
import { invalidInput, type EventStore } from '@session-ledger/core';
import { appendToStream } from './append.js';
import { checkpoints } from './checkpoints.js';
import { boundaryMemory, readAll } from './readAll.js';
import { lastRevisions } from './lastRevisions.js';
import { readStream } from './readStream.js';
import { deleteStream, tombstoneStream } from './remove.js';
import { subscribeToAll, subscribeToStream } from './subscribe.js';
import { redactUrl, toConnectionString } from './url.js';

/**
 * The client warns on stderr (three lines) about an option it does not know and ignores it: such
 * a URL is refused here instead, in one line, so a misspelt option is never silently dropped.
 */
const connect = (connectionString: string): EventStoreDBClient => {
  const warnings: unknown[][] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args);
  let client: EventStoreDBClient;
  try {
    client = EventStoreDBClient.connectionString(connectionString);
  } catch (error) {
    throw invalidInput(`Not a usable EventStoreDB URL: ${(error as Error).message.split('\n')[0]}`, 'url');
  } finally {
    console.warn = warn;
  }
  for (const args of warnings) {
    const unknown = /^Unknown option key "([^"]*)"/.exec(String(args[0]))?.[1];
    if (unknown !== undefined) throw invalidInput(`Not a usable EventStoreDB URL: unknown option "${unknown}"`, 'url');
    warn(...args);
  }
  return client;
};

/** Closes the client's gRPC channel, which `dispose()` (it only cancels open streams) leaves open. */
const closeChannel = async (client: EventStoreDBClient): Promise<void> => {
  const internal = client as unknown as { getChannel?: () => Promise<{ close(): void }> };
  const channel = await internal.getChannel?.().catch(() => undefined);
  channel?.close();
};

/**
 * The EventStore port on EventStoreDB/KurrentDB, through the official client. The connection is
 * made lazily by the client, so a server that cannot be reached surfaces as store_unavailable on
 * the first operation, not here; a malformed URL is refused here, as invalid_input.
 */
export const openEventStoreDbStore = (url: string): EventStore => {
  const client = connect(toConnectionString(url));
  const boundaries = boundaryMemory();
  const named = checkpoints(client);
  const seen = { position: -1n };
  const known = lastRevisions();
  /** Deletes change where a stream ends in ways no answer shows: forget it whatever happens. */
  const forgetting = <T>(stream: string, operation: Promise<T>) => operation.finally(() => known.forget(stream));
  let closed = false;
  return {
    name: `eventstoredb:${redactUrl(url)}`,
    appendToStream: (stream, events, options = {}) => appendToStream(client, stream, events, options.expectedRevision ?? 'any', seen, known),
    readStream: (stream, options) => readStream(client, stream, options, known),
    readAll: (options = {}) => readAll(client, options, boundaries),
    deleteStream: (stream, options = {}) => forgetting(stream, deleteStream(client, stream, options.expectedRevision ?? 'any')),
    tombstoneStream: (stream, options = {}) => forgetting(stream, tombstoneStream(client, stream, options.expectedRevision ?? 'any')),
    subscribeToStream: (stream, options) => subscribeToStream(client, stream, options),
    subscribeToAll: (options) => subscribeToAll(client, options),
    readCheckpoint: (name) => named.read(name),
    storeCheckpoint: (name, position) => named.store(name, position),
    async close() {
      if (closed) return;
      closed = true;
      await client.dispose();
      await closeChannel(client);
    },
  };
};

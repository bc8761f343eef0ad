import type { Command } from 'commander';
import { createLedger, type EventStore, type Ledger } from '@session-ledger/core';
import { defaultStoreUrl, openStore } from './openStore.js';
import { processIo, type Io } from './output.js';
import { progressFor, type Progress } from './progress.js';
import type { Progress as ReadModelProgress } from '@session-ledger/read-models';

export interface GlobalOptions {
  store?: string;
  json?: boolean;
}

export interface CommandContext {
  io: Io;
  json: boolean;
  storeUrl: string;
  now: () => Date;
}

export const contextOf = (command: Command, io: Io = processIo()): CommandContext => {
  const options = command.optsWithGlobals<GlobalOptions>();
  return { io, json: Boolean(options.json), storeUrl: options.store ?? defaultStoreUrl(), now: () => new Date() };
};

/** Steps toward a total on a bar: the bar starts at the first step and ends when the total is reached. */
const towards = (bar: Progress): ((done: number, total: number) => void) => {
  let started = false;
  return (done, total) => {
    if (!started && total > 0) bar.start(total);
    started = true;
    bar.update(done);
    // A step reaching its total ends its bar: a later one (a deferred model caught up by a read
    // during the command, before a prompt; the next migration) starts its own, and none is left running.
    if (done >= total) {
      bar.stop();
      started = false;
    }
  };
};

/** A read model's progress (the position reached, the ledger's head) on a bar whose total is the head. */
export const towardsHead = (bar: Progress): ReadModelProgress => {
  const step = towards(bar);
  return (_name, position, head) => step(Number(position), Number(head));
};

/**
 * Opens a store with a bar on a terminal for what may take long: a migration of the file (every
 * event copied or hashed) and a read model built or caught up, on open or later (a deferred model
 * caught up by a read during the command). `stopBars` ends whatever bar is still running.
 */
export const openShowingProgress = async (
  context: CommandContext,
  url: string,
  options: { write: boolean },
): Promise<{ store: EventStore; stopBars: () => void }> => {
  const migration = progressFor(context, 'upgrading the ledger file', 'events');
  const bar = progressFor(context, 'read models', 'events');
  const step = towards(migration);
  const stopBars = () => {
    migration.stop();
    bar.stop();
  };
  try {
    return { store: await openStore(url, { ...options, onProgress: towardsHead(bar), onMigration: (_version, done, total) => step(done, total) }), stopBars };
  } finally {
    stopBars();
  }
};

/** Opens the store for one command and always closes it. Read-only commands never create a store file. */
export const withLedger = async <T>(
  context: CommandContext,
  options: { write: boolean },
  run: (ledger: Ledger, store: EventStore) => Promise<T>,
): Promise<T> => {
  const { store, stopBars } = await openShowingProgress(context, context.storeUrl, options);
  try {
    return await run(createLedger(store), store);
  } finally {
    stopBars();
    await store.close();
  }
};

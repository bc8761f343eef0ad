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

/** A read model's progress (the position reached, the ledger's head) on a bar whose total is the head. */
export const towardsHead = (bar: Progress): ReadModelProgress => {
  let started = false;
  return (_name, position, head) => {
    if (!started && head > 0n) bar.start(Number(head));
    started = true;
    bar.update(Number(position));
    // A catch-up reaching the head ends its bar: a later one (a deferred model caught up by a read
    // during the command, before a prompt) starts its own, and none is left running.
    if (position >= head) {
      bar.stop();
      started = false;
    }
  };
};

/** Opens the store for one command and always closes it. Read-only commands never create a store file. */
export const withLedger = async <T>(
  context: CommandContext,
  options: { write: boolean },
  run: (ledger: Ledger, store: EventStore) => Promise<T>,
): Promise<T> => {
  // A read model built or caught up on open (a new version, a ledger written without it) shows a bar on a terminal.
  const bar = progressFor(context, 'read models', 'events');
  let store: EventStore;
  try {
    store = await openStore(context.storeUrl, { ...options, onProgress: towardsHead(bar) });
  } catch (error) {
    bar.stop();
    throw error;
  }
  bar.stop();
  try {
    return await run(createLedger(store), store);
  } finally {
    bar.stop();
    await store.close();
  }
};

import { isLedgerError, type EventStore } from '@session-ledger/core';
import type { SubscriberSlots } from '@session-ledger/http';
import { startConfiguredFanOut } from '@session-ledger/memory';
import { openStore } from '../openStore.js';
import { processIo } from '../output.js';
import type { FromWorker, ToWorker } from './serveMessages.js';
import { closeServer, listenService, type ServeConfig } from './serveService.js';

/**
 * One worker of `serve --workers N` (node:cluster runs this file): its own store connection, group
 * commit and HTTP server on the port the primary holds. It stops when the primary says so or goes
 * away; SIGINT and SIGTERM are the primary's to act on (a Ctrl-C reaches the whole process group).
 */
/** Resolves once the message is handed to the channel (or at once when the primary is gone). */
const send = (message: FromWorker): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, undefined, undefined, () => resolve());
  });

/** The --max-subscribers slots, asked of the primary: one count over every worker. */
const primarySlots = (max: number): SubscriberSlots => {
  let next = 0;
  const waiting = new Map<number, (granted: boolean) => void>();
  process.on('message', (message: ToWorker) => {
    if (message.kind !== 'slot') return;
    waiting.get(message.id)?.(message.granted);
    waiting.delete(message.id);
  });
  return {
    max,
    acquire: () =>
      new Promise<boolean>((resolve) => {
        if (!process.connected) return resolve(false);
        const id = next++;
        waiting.set(id, resolve);
        void send({ kind: 'slot', id });
      }),
    release: () => void send({ kind: 'unslot' }),
  };
};

/** Set once serving: stops the server, the fan-out and the store, then exits. */
let stopWorker: (() => Promise<void>) | undefined;

const run = async (config: ServeConfig, fanOutHere: boolean): Promise<void> => {
  const io = processIo();
  let store: EventStore | undefined;
  let listening: Awaited<ReturnType<typeof listenService>>;
  try {
    store = await openStore(config.storeUrl, { write: true });
    listening = await listenService(config, store, () => new Date(), primarySlots(config.maxSubscribers));
  } catch (error) {
    await store?.close();
    await send({ kind: 'failed', type: isLedgerError(error) ? error.type : undefined, message: (error as Error).message });
    process.exit(1);
  }
  const opened = store;
  const fanOut = fanOutHere
    ? startConfiguredFanOut(opened, config.settings, (warning) => io.err(`session-ledger: memory provider ${warning.provider}: ${warning.message}`))
    : null;
  let stopping = false;
  stopWorker = async () => {
    if (stopping) return;
    stopping = true;
    await closeServer(listening.server);
    await fanOut?.stop();
    await opened.close();
    process.exit(0);
  };
  void send({ kind: 'listening', port: listening.port });
};

process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('message', (message: ToWorker) => {
  if (message.kind === 'config') void run(message.config, message.fanOut);
  else if (message.kind === 'stop') void (stopWorker ? stopWorker() : process.exit(0));
});
// The primary is gone (killed): nobody hands this worker connections or stops it.
process.on('disconnect', () => void (stopWorker ? stopWorker() : process.exit(1)));
void send({ kind: 'ready' });

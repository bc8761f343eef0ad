import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { invalidInput, storeUnavailable } from '@session-ledger/core';
import type { CommandContext } from '../context.js';
import { emit, note } from '../output.js';
import { fixedPort } from './servePort.js';
import { restartBudget, workersFailing } from './restartBudget.js';
import type { FromWorker, ToWorker } from './serveMessages.js';
import { urlOf, type ServeConfig } from './serveService.js';

const WORKER = fileURLToPath(new URL('./serveWorker.js', import.meta.url));

/** How long a stopping worker may take to close its connections and store before it is killed. */
const STOP_GRACE_MS = 10_000;

/** A message to a worker that may be exiting: never an unhandled EPIPE. */
const tell = (worker: Worker, message: ToWorker): void => {
  if (worker.isConnected()) worker.send(message, undefined, () => undefined);
};

const failure = (message: Extract<FromWorker, { kind: 'failed' }>): Error =>
  message.type === 'invalid_input' ? invalidInput(message.message) : message.type === 'store_unavailable' ? storeUnavailable(message.message) : new Error(message.message);

/**
 * `serve --workers N`: this (primary) process holds the listening socket and hands connections to N
 * worker processes (node:cluster, round robin), each with its own store connection, group commit
 * and HTTP server on the one SQLite file. The primary prints the `{url, store}` line once, when
 * every worker listens; counts the --max-subscribers slots over all workers; stops them all on
 * SIGINT/SIGTERM. Once the server listens, a worker that dies (or a replacement that dies or fails
 * before it listens) is reported on stderr and replaced (the one running the memory fan-out by one
 * that runs it), unless workers keep dying (restartBudget.ts: then the server stops with that
 * error); a worker that fails before the server first listens stops the server with its error.
 */
export const serveCluster = async (context: CommandContext, asked: ServeConfig, workers: number, storeName: string): Promise<void> => {
  const config: ServeConfig = { ...asked, port: await fixedPort(asked.host, asked.port) };
  return new Promise<void>((resolve, reject) => {
    cluster.setupPrimary({ exec: WORKER, args: [], silent: false });
    const live = new Set<Worker>();
    let stopping = false;
    let started = false;
    let failed: Error | undefined;
    let openSlots = 0;
    const held = new Map<Worker, number>();
    const died = restartBudget();

    const stopAll = () => {
      stopping = true;
      process.off('SIGINT', stopAll);
      process.off('SIGTERM', stopAll);
      for (const worker of live) {
        tell(worker, { kind: 'stop' });
        setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS).unref();
      }
      if (live.size === 0) finish();
    };
    const finish = () => (failed ? reject(failed) : resolve());

    const listened = new Set<number>();
    const onListening = (slot: number, port: number) => {
      listened.add(slot);
      if (started || listened.size < workers) return;
      started = true;
      const url = urlOf(config.host, port);
      emit(context.io, context.json, { url, store: storeName }, () => url);
      note(context.io, context.json, `session-ledger listening on ${url} (store ${storeName}, ${workers} worker processes); Ctrl-C stops it`);
    };

    const start = (slot: number) => {
      const worker = cluster.fork();
      live.add(worker);
      worker.on('error', () => undefined); // a channel error ends in 'close' below
      let listening = false;
      let failedHere: Error | undefined;
      worker.on('message', (message: FromWorker) => {
        if (message.kind === 'ready') tell(worker, { kind: 'config', config, fanOut: slot === 0 });
        else if (message.kind === 'listening') {
          listening = true;
          onListening(slot, message.port);
        } else if (message.kind === 'failed') {
          failedHere = failure(message);
        } else if (message.kind === 'slot') {
          const granted = !stopping && openSlots < config.maxSubscribers;
          if (granted) {
            openSlots += 1;
            held.set(worker, (held.get(worker) ?? 0) + 1);
          }
          tell(worker, { kind: 'slot', id: message.id, granted });
        } else if (message.kind === 'unslot') {
          openSlots -= 1;
          held.set(worker, (held.get(worker) ?? 1) - 1);
        }
      });
      // 'close', not 'exit': it comes after the IPC channel has delivered the worker's last message (its failure).
      worker.process.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
        live.delete(worker);
        openSlots -= held.get(worker) ?? 0;
        held.delete(worker);
        if (stopping) return void (live.size === 0 && finish());
        if (!listening && !started) {
          failed ??= failedHere ?? workersFailing(`exited before it listened (${signal ?? `exit code ${code}`})`, 1);
          return stopAll();
        }
        // A replacement that dies before it listens (killed, or its store refused) counts like any death.
        const how = failedHere
          ? `failed before it listened (${failedHere.message})`
          : `${signal ? `was killed by ${signal}` : `exited with code ${code}`}${listening ? '' : ' before it listened'}`;
        if (died(Date.now()) === 'stop') {
          failed ??= workersFailing(`${worker.process.pid}, ${how}`);
          return stopAll();
        }
        context.io.err(`session-ledger: worker process ${worker.process.pid} ${how}; starting another`);
        start(slot);
      });
    };

    process.once('SIGINT', stopAll);
    process.once('SIGTERM', stopAll);
    for (let slot = 0; slot < workers; slot += 1) start(slot);
  });
};

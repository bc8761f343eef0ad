import { Worker } from 'node:worker_threads';
import type { SyncEvent } from '../ledger/syncStream.js';
import { MAX_IN_FLIGHT, type AppendWorkerData, type FromAppender, type StoreOpener, type ToAppender } from './protocol.js';
import { fromWire } from './wireError.js';

/**
 * The worker's script: next to this file once built; from the sources (tests run them through
 * vitest), the built one, as a worker runs plain JavaScript (`npm test` builds first).
 */
const workerFile = (): URL =>
  import.meta.url.endsWith('.ts') ? new URL('../../dist/split/appendWorker.js', import.meta.url) : new URL('./appendWorker.js', import.meta.url);

/** How long a worker asked to close may take before it is terminated. */
const CLOSE_MS = 30_000;

export interface AppendThread {
  begin(stream: string): void;
  /** Sends a batch once fewer than MAX_IN_FLIGHT wait; rejects once the worker failed. */
  batch(events: SyncEvent[]): Promise<void>;
  end(count: number, refused?: string): void;
  /** The worker's failure, if it failed (its error on this side). */
  failure(): Error | null;
  /** Asks the worker to close its store after what was sent, and waits until it has ended. */
  close(): Promise<void>;
}

/**
 * Starts the append worker on its own store (`opener`). `onMessage` gets the worker's reports
 * (`wrote`, `outcome`) in order; a failure (a `failed` message, an uncaught error, an exit before
 * `closed`) goes to `onFailure` once, and makes every later wait reject, so nothing hangs.
 */
export const startAppendThread = (
  opener: StoreOpener,
  batchSize: number,
  onMessage: (message: Extract<FromAppender, { t: 'wrote' | 'outcome' }>) => void,
  onFailure: (error: Error) => void,
): AppendThread => {
  const worker = new Worker(workerFile(), { workerData: { opener, batchSize } satisfies AppendWorkerData });
  let failure: Error | null = null;
  let inFlight = 0;
  let room: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let closed = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fail = (error: Error) => {
    if (failure !== null) return;
    failure = error;
    onFailure(error);
    const r = room;
    room = null;
    r?.reject(error);
  };
  worker.on('message', (message: FromAppender) => {
    switch (message.t) {
      case 'took': {
        inFlight -= 1;
        const r = room;
        room = null;
        return r?.resolve();
      }
      case 'failed':
        return fail(fromWire(message.error));
      case 'closed':
        closed = true;
        // Its store is closed: nothing of it is left to wait for.
        return void worker.terminate();
      default:
        if (failure === null) onMessage(message);
    }
  });
  worker.on('error', (error: Error) => fail(error));
  worker.on('exit', (code: number) => {
    if (!closed) fail(new Error(`the import's append worker ended (exit code ${code})`));
  });
  const post = (message: ToAppender) => worker.postMessage(message);
  return {
    begin: (stream) => post({ t: 'begin', stream }),
    async batch(events) {
      while (inFlight >= MAX_IN_FLIGHT) {
        if (failure !== null) throw failure;
        await new Promise<void>((resolve, reject) => (room = { resolve, reject }));
      }
      if (failure !== null) throw failure;
      inFlight += 1;
      post({ t: 'batch', text: JSON.stringify(events) });
    },
    end: (count, refused) => post({ t: 'end', count, ...(refused === undefined ? {} : { refused }) }),
    failure: () => failure,
    async close() {
      post({ t: 'close' });
      const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
};

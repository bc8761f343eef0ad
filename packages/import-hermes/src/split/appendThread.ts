import { Worker } from 'node:worker_threads';
import { sealedDataTexts, type EventData, type ExpectedRevision } from '@session-ledger/core';
import { MAX_IN_FLIGHT, type AppendWorkerData, type FromAppender, type StoreOpener, type ToAppender, type WroteCounts } from './protocol.js';
import { fromWire } from './wireError.js';

/**
 * The worker's script: next to this file once built; from the sources (tests run them through
 * vitest), the built one, as a worker runs plain JavaScript (`npm test` builds first).
 */
const workerFile = (): URL =>
  import.meta.url.endsWith('.ts') ? new URL('../../dist/split/appendWorker.js', import.meta.url) : new URL('./appendWorker.js', import.meta.url);

/**
 * The worker's young generation (MiB): its garbage is one parsed batch at a time, so a small one
 * does. A 250 MB source through the CLI (one run each, load 6): the default peaked at 369 MB in
 * 16.3 s, 8 MiB at 329 MB in 16.2 s (4 MiB: 331 MB, 19.5 s).
 */
const YOUNG_MB = 8;

/** How long a worker asked to close may take before it is terminated. */
const CLOSE_MS = 30_000;

export interface AppendThread {
  begin(stream: string, existing: number): void;
  /** Sends a sealed batch once fewer than MAX_IN_FLIGHT wait; rejects once the worker failed. */
  batch(events: EventData[], expected: ExpectedRevision, counts: WroteCounts): Promise<void>;
  end(refused?: string): void;
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
  onMessage: (message: Extract<FromAppender, { t: 'wrote' | 'outcome' }>) => void,
  onFailure: (error: Error) => void,
): AppendThread => {
  const worker = new Worker(workerFile(), { workerData: { opener } satisfies AppendWorkerData, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
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
    begin: (stream, existing) => post({ t: 'begin', stream, existing }),
    async batch(events, expected, counts) {
      while (inFlight >= MAX_IN_FLIGHT) {
        if (failure !== null) throw failure;
        await new Promise<void>((resolve, reject) => (room = { resolve, reject }));
      }
      if (failure !== null) throw failure;
      inFlight += 1;
      // The data go as the texts the ledger wrote into the chain texts: not serialised again here, nor by the worker's store.
      const sealed = sealedDataTexts(events);
      const data = events.map((event, index) => sealed?.[index] ?? JSON.stringify(event.data));
      const heads = events.map((event) => ({ id: event.id, type: event.type, metadata: event.metadata }));
      post({ t: 'batch', expected: String(expected), text: JSON.stringify(heads), data, counts });
    },
    end: (refused) => post({ t: 'end', ...(refused === undefined ? {} : { refused }) }),
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

import type { ServeConfig } from './serveService.js';

/** What a `serve --workers N` worker tells the primary, over the cluster's IPC channel. */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'listening'; port: number }
  /** Before listening: the store or the port failed; `type` is the LedgerError type, if any. */
  | { kind: 'failed'; type: string | undefined; message: string }
  /** An event stream asks for one of the --max-subscribers slots, counted by the primary over all workers. */
  | { kind: 'slot'; id: number }
  | { kind: 'unslot' };

/** What the primary tells a worker. */
export type ToWorker =
  /** `fanOut`: this worker runs the memory fan-out and mirror (one worker does). */
  | { kind: 'config'; config: ServeConfig; fanOut: boolean }
  | { kind: 'slot'; id: number; granted: boolean }
  | { kind: 'stop' };

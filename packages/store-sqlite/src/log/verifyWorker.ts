import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
// The scan's own entry: the package's index would load the whole core in every worker.
import { scanRange, type RangeScan } from '@session-ledger/core/scan';
import { sqliteScanSource } from './scanSource.js';

/** One range scan a worker is asked for (workerScanner.ts), and its answer. */
export interface ScanRequest {
  from: number;
  to: number;
  cut: number | null;
}
export type ScanAnswer = { scan: RangeScan } | { error: string };

/** A verify worker: its own read-only connection to the ledger file (WAL lets readers run beside the writer). */
const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
const source = sqliteScanSource(db);
parentPort!.on('message', (request: ScanRequest) => {
  scanRange(source, request.from, request.to, request.cut).then(
    (scan) => parentPort!.postMessage({ scan } satisfies ScanAnswer),
    (error: unknown) => parentPort!.postMessage({ error: String(error) } satisfies ScanAnswer),
  );
});

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { builtWorker, type LeafRange, type ParallelScanner, type PositionSpan, type RangeScan, type UncoveredCount } from '@session-ledger/core';
import type { ScanAnswer, ScanRequest } from './verifyWorker.js';

const ask = (worker: Worker, request: ScanRequest): Promise<RangeScan> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`verify worker exited with ${code}`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (answer: ScanAnswer) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer.scan);
    });
    worker.postMessage(request);
  });

/**
 * Stored events outside all the spans (in order, disjoint), counted on the rowid: those below the first
 * or in a gap between two apart from those above the last (on a live ledger, the appends since verify
 * read the log's size).
 */
const uncovered = (db: Database.Database, spans: PositionSpan[]): UncoveredCount => {
  const below = db.prepare('SELECT count(*) FROM events WHERE position < ?').pluck();
  const between = db.prepare('SELECT count(*) FROM events WHERE position > ? AND position < ?').pluck();
  const above = db.prepare('SELECT count(*) FROM events WHERE position > ?').pluck();
  return db.transaction(() => {
    if (spans.length === 0) return { inside: Number(db.prepare('SELECT count(*) FROM events').pluck().get()), above: 0 };
    let inside = Number(below.get(spans[0]!.first));
    for (let at = 1; at < spans.length; at += 1) inside += Number(between.get(spans[at - 1]!.last, spans[at]!.first));
    return { inside, above: Number(above.get(spans[spans.length - 1]!.last)) };
  })();
};

/**
 * Each worker's young generation, in MB (V8's default is 16 on 64-bit). A scan page's rows live until
 * the page is checked, so small semi-spaces copied and promoted most of them: 22 % of a worker's time
 * was the garbage collector, 10 % with 64 MB, and verify's CPU fell from 14.5 to 10-11 s for
 * 1,000,000 events (benchmark row "audit verify of 1,000,000 events").
 */
const YOUNG_MB = 64;

/**
 * Range scans on worker threads, each with its own read-only connection to the store's file: a pool of
 * `workers` started per verify, each taking the next range until all are done or one is unclean.
 * A worker that cannot start or fails makes the result short, and verify sweeps the log itself.
 */
export const workerScanner = (db: Database.Database, workers = Math.min(availableParallelism(), 4)): ParallelScanner | undefined => {
  const file = db.name;
  const script = builtWorker(import.meta.url, 'log', 'verifyWorker');
  if (!script) return undefined;
  return {
    workers,
    uncovered: async (spans) => uncovered(db, spans),
    async scan(ranges: LeafRange[], cut: number | null, onScanned?: (scan: RangeScan) => void) {
      const results: Array<RangeScan | undefined> = [];
      let next = 0;
      let stop = false;
      const pool = Array.from({ length: Math.min(workers, ranges.length) }, () => {
        const worker = new Worker(script, { workerData: { file }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
        // An error while no range is asked of it (a worker is only ever idle between two asks) must not end the process.
        worker.on('error', () => undefined);
        return worker;
      });
      const drain = async (worker: Worker) => {
        while (!stop && next < ranges.length) {
          const at = next++;
          const scan = await ask(worker, { ...ranges[at]!, cut });
          results[at] = scan;
          onScanned?.(scan);
          if (!scan.clean) stop = true;
        }
      };
      try {
        await Promise.all(pool.map(drain));
      } catch {
        stop = true;
        return [];
      } finally {
        await Promise.all(pool.map((worker) => worker.terminate()));
      }
      const done: RangeScan[] = [];
      for (const scan of results) {
        if (!scan) break;
        done.push(scan);
      }
      return done;
    },
  };
};

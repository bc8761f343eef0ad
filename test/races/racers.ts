import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RACER = fileURLToPath(new URL('./fixtures/racer.mjs', import.meta.url));

export interface RoundResult {
  /** What each acknowledged call returned (message, turn or child ids). */
  acked: string[];
  /** The error type of each refused call. */
  refused: string[];
}

export type Round =
  /** `pauseMs` between appends stretches the racer's writes so a slower surface writes among them. */
  | { kind: 'messages'; session: string; count: number; pauseMs?: number }
  | { kind: 'turn'; session: string }
  | { kind: 'compress'; session: string };

/**
 * Runs `processes` racer processes on one SQLite file; each plays every round, and round i starts
 * at the same instant in all of them (`gapMs` apart). Returns, per round, every process's result.
 */
export const race = async (file: string, processes: number, rounds: Round[], gapMs = 400): Promise<RoundResult[][]> => {
  const startAt = Date.now() + 2500; // time for every process to load before the first round
  const perProcess = await Promise.all(
    Array.from(
      { length: processes },
      (_, index) =>
        new Promise<RoundResult[]>((resolve, reject) => {
          const text = JSON.stringify({ name: `racer-${index}`, startAt, gapMs, rounds });
          execFile(process.execPath, [RACER, file, text], { timeout: 180_000 }, (error, stdout, stderr) => {
            if (error) reject(new Error(`racer ${index} failed: ${error.message}\n${stderr}`));
            else resolve(JSON.parse(stdout) as RoundResult[]);
          });
        }),
    ),
  );
  return rounds.map((_, round) => perProcess.map((results) => results[round]!));
};

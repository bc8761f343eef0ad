import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CLI } from './cli.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/**
 * Runs the CLI and stops it (SIGSTOP) as soon as `ready()` says the run is part way; then, if
 * `partWay()` confirms it on the frozen process, sends `signal` (SIGKILL: a kill -9) and returns
 * how it ended. Returns null when the run finished before it could be caught part way (the caller
 * tries again on a fresh setup): the kill always lands at a state the test has seen.
 */
export const interruptCli = async (
  args: string[],
  env: Record<string, string>,
  options: { ready: () => boolean; partWay?: () => boolean; signal?: NodeJS.Signals },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string } | null> => {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, SESSION_LEDGER_DEBUG: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.resume();
  const end = exited(child);
  for (;;) {
    if (child.exitCode !== null) {
      await end;
      return null;
    }
    if (options.ready()) break;
    await sleep(1);
  }
  child.kill('SIGSTOP');
  if (!(options.partWay ?? options.ready)()) {
    child.kill('SIGCONT');
    await end;
    return null;
  }
  child.kill(options.signal ?? 'SIGKILL');
  child.kill('SIGCONT');
  const { code, signal } = await end;
  return { code, signal, stderr };
};

/** Tries `attempt` on fresh setups until one run was caught part way (at most `times`). */
export const untilCaught = async <T>(attempt: () => Promise<T | null>, times = 8): Promise<T> => {
  for (let n = 0; n < times; n += 1) {
    const caught = await attempt();
    if (caught !== null) return caught;
  }
  throw new Error(`no run was caught part way in ${times} attempts`);
};

/** One number from an SQLite file as another process sees it right now (0 while the file or table is not there yet): how a test watches a run it is about to kill. */
export const countIn = (file: string, sql: string): number => {
  if (!existsSync(file)) return 0;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
};

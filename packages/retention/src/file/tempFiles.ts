import { unlinkSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Temp files with export content, while this process writes them. A failure removes its own in a
 * `finally`; SIGINT, SIGTERM and SIGHUP remove every live one (then the signal takes its usual
 * course); a kill -9 cannot be caught, so the next export to the same file removes the temp files
 * whose writing process is gone.
 */
const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const removeLive = (): void => {
  for (const path of live) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
  live.clear();
};

const handlers = new Map<NodeJS.Signals, () => void>();

const install = () => {
  for (const signal of SIGNALS) {
    const handler = () => {
      removeLive();
      uninstall();
      // nobody else listens: die of the signal, as without this handler
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
};

const uninstall = () => {
  for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  handlers.clear();
};

/** Registers a temp file being written; the returned function forgets it (after it was linked or removed). */
export const trackTempFile = (path: string): (() => void) => {
  if (live.size === 0) install();
  live.add(path);
  return () => {
    live.delete(path);
    if (live.size === 0) uninstall();
  };
};

/** The temp file name for an export to `base`: it names the writing process, so a later run can tell a dead writer's. */
export const tempNameFor = (base: string, id: string): string => `.${base}.${process.pid}.${id}.tmp`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const alive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the temp files a killed export to `base` left in `dir`: those named by a process that is
 * no longer running (or, from older versions, by none). A live writer's temp file is left alone.
 * Returns the names removed.
 */
export const removeStaleTempFiles = async (dir: string, base: string): Promise<string[]> => {
  const pattern = new RegExp(`^\\.${escapeRegExp(base)}\\.(?:(\\d+)\\.)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.tmp$`);
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match) continue;
    const pid = match[1] === undefined ? null : Number(match[1]);
    if (pid !== null && alive(pid) && (pid !== process.pid || live.has(join(dir, name)))) continue;
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
};

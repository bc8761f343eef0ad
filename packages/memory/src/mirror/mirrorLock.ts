import { join } from 'node:path';
import { ledgerError, makeFolder } from '@session-ledger/core';

/** The mirror's lock, beside its mapping: a directory while some process writes the mirror. */
export const LOCK_FILE = '.session-ledger-mirror.lock';
/** A lock its holder has not refreshed for this long is a dead holder's (kill -9), and is taken over. */
const STALE_MS = 5_000;
/** How long a writer waits for a held lock, in short tries (past a dead holder's STALE_MS). */
const WAIT_MS = 30_000;
const TRY_MS = { min: 2, max: 50 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Lockfile = typeof import('proper-lockfile');
type LockOptions = Parameters<Lockfile['lock']>[1];

/**
 * Takes the lock, waiting only while another process holds it (ELOCKED). Any other error (a directory
 * where nothing can be created: read-only, /proc, no permission) fails at once and names its cause:
 * proper-lockfile's own retries retry every error, so such a directory waited 30 s and was then
 * reported as "locked by another process" (outside test, session 26).
 */
const acquire = async (lockfile: Lockfile, dir: string, path: string, options: LockOptions): Promise<() => Promise<void>> => {
  const deadline = Date.now() + WAIT_MS;
  for (let delay = TRY_MS.min; ; delay = Math.min(TRY_MS.max, delay * 1.2)) {
    try {
      return await lockfile.lock(dir, { ...options, retries: 0 });
    } catch (caught) {
      const error = caught as { code?: string; message?: string };
      if (error.code !== 'ELOCKED')
        throw ledgerError('store_unavailable', `The mirror ${dir} cannot be locked: ${path}: ${error.code ?? error.message ?? String(caught)}`, { cause: error.code ?? error.message ?? String(caught) });
      if (Date.now() >= deadline) throw ledgerError('store_unavailable', `The mirror ${dir} stayed locked by another process (${path}); try again`, { cause: 'ELOCKED' });
      await sleep(delay);
    }
  }
};

/**
 * Runs `work` (which reads the mapping and writes the files) while holding the directory's lock
 * across processes. Every apply, fill and rebuild reads the mapping, changes it and writes it back:
 * two fan-outs of one provider name (two `serve --mirror DIR` on one store) must not interleave, or
 * one writes its older state over the other's newer one and the mutations between are lost from
 * the files for good, or one takes the other's half-written files for foreign ones (outside test,
 * session 23). proper-lockfile's lock is a directory made atomically and refreshed while held, so a
 * holder killed with -9 leaves a lock the next writer takes over once stale, never one held forever.
 */
export const withMirrorLock = async <T>(dir: string, work: () => T | Promise<T>): Promise<T> => {
  makeFolder(dir);
  const path = join(dir, LOCK_FILE);
  let compromised: Error | undefined;
  // Loaded when a mirror first writes, never with the package: proper-lockfile installs signal-exit's
  // SIGINT/SIGTERM/SIGHUP listeners when loaded, and a process holding them does not die of those
  // signals when it has listeners of its own (an export's temp-file cleanup: every CLI command).
  const { default: lockfile } = await import('proper-lockfile');
  const release = await acquire(lockfile, dir, path, { lockfilePath: path, realpath: false, stale: STALE_MS, onCompromised: (error) => void (compromised = error) });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
    // Held past STALE_MS without a refresh (a stalled process): another writer may have written in
    // between. Failing the apply makes the fan-out deliver it again, on the files as they are now.
    if (compromised) throw ledgerError('store_unavailable', `The lock of the mirror ${dir} was taken over while this process held it`, { cause: compromised.message });
  }
};

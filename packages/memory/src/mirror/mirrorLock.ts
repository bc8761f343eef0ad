import { join } from 'node:path';
import { ledgerError, makeFolder } from '@session-ledger/core';

/** The mirror's lock, beside its mapping: a directory while some process writes the mirror. */
export const LOCK_FILE = '.session-ledger-mirror.lock';
/** A lock its holder has not refreshed for this long is a dead holder's (kill -9), and is taken over. */
const STALE_MS = 5_000;
/** How a writer waits for the lock: short tries, about 30 s in all (past a dead holder's STALE_MS). */
const RETRIES = { retries: 600, factor: 1.2, minTimeout: 2, maxTimeout: 50 };

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
  const release = await lockfile
    .lock(dir, { lockfilePath: path, realpath: false, stale: STALE_MS, retries: RETRIES, onCompromised: (error) => void (compromised = error) })
    .catch((error: { code?: string; message?: string }) => {
      throw ledgerError('store_unavailable', `The mirror ${dir} stayed locked by another process (${path}); try again`, { cause: error.code ?? error.message ?? String(error) });
    });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
    // Held past STALE_MS without a refresh (a stalled process): another writer may have written in
    // between. Failing the apply makes the fan-out deliver it again, on the files as they are now.
    if (compromised) throw ledgerError('store_unavailable', `The lock of the mirror ${dir} was taken over while this process held it`, { cause: compromised.message });
  }
};

import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const fsyncDir = (dir: string) => {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot open or fsync a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

/** The temporary file a write of `path` goes through: `.NAME.PID.HEX.tmp` beside it. */
const tempOf = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes the temporary files that writes of `names` in `dir` left when killed with -9 between the
 * temp file and its rename (outside test, session 26: they piled up in Hermes' memories directory).
 * Call it only while no other writer of those names can be writing: under the directory's lock.
 */
export const removeLeftTemps = (dir: string, names: readonly string[]): void => {
  const left = new RegExp(`^\\.(?:${names.map(escaped).join('|')})\\.\\d+\\.[0-9a-f]{8}\\.tmp$`);
  for (const entry of readdirSync(dir)) if (left.test(entry)) rmSync(join(dir, entry), { force: true });
};

/**
 * Writes a file so readers see the old or the new content, never a part: temp file, fsync, rename, fsync dir.
 * `beforeReplace` runs just before the rename (the temp file durable), so a check of what is replaced
 * leaves the narrowest window; if it throws, nothing is replaced.
 */
/**
 * The mode of what replaces `path`: the file's own (Hermes writes its memory 0600; the mirror replaced
 * it world-readable: outside test, session 34, helper-94 F17), or owner-only for a new one (memory is private).
 */
const modeOf = (path: string): number => {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o600;
  }
};

export const writeFileAtomic = (path: string, content: string, beforeReplace?: () => void): void => {
  const dir = dirname(path);
  const temp = tempOf(path);
  const fd = openSync(temp, 'w', 0o600);
  try {
    // The creation mode is masked by the umask; the file's own mode is set as it is.
    fchmodSync(fd, modeOf(path));
    const buffer = Buffer.from(content, 'utf8');
    let written = 0;
    while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written);
    fsyncSync(fd);
    beforeReplace?.();
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDir(dir);
};

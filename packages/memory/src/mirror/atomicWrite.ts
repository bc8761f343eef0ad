import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/**
 * Writes a file so readers see the old or the new content, never a part: temp file, fsync, rename, fsync dir.
 * `beforeReplace` runs just before the rename (the temp file durable), so a check of what is replaced
 * leaves the narrowest window; if it throws, nothing is replaced.
 */
export const writeFileAtomic = (path: string, content: string, beforeReplace?: () => void): void => {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w', 0o644);
  try {
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

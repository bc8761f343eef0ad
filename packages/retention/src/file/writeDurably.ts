import { randomUUID } from 'node:crypto';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { invalidInput, ledgerError } from '@session-ledger/core';
import { removeStaleTempFiles, tempNameFor, trackTempFile } from './tempFiles.js';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

export const exportExists = (path: string) =>
  ledgerError('duplicate', `Export file exists: ${path} (an export is never overwritten; choose another --out)`, { what: `export file ${path}` });

const namesDirectory = (path: string) =>
  invalidInput(`--out names a directory: ${path} (name the export file inside it)`, 'out');

const isDirectory = (path: string) => stat(path).then((found) => found.isDirectory(), () => false);

const cannotWrite = (path: string, error: unknown) =>
  invalidInput(`Cannot write the export to ${path}: ${(error as Error).message.split('\n')[0]}`, 'out');

const syncDirectory = async (dir: string) => {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/** Puts the finished temp file at `path` atomically, refusing to replace a file that exists. */
const publish = async (temp: string, path: string) => {
  try {
    await link(temp, path);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw (await isDirectory(path)) ? namesDirectory(path) : exportExists(path);
    if (codeOf(error) !== 'EPERM' && codeOf(error) !== 'ENOTSUP' && codeOf(error) !== 'ENOSYS') throw error;
    // A filesystem without hard links: check, then rename (the check and the rename are not one step).
    if (await stat(path).then(() => true, () => false)) throw exportExists(path);
    await rename(temp, path);
  }
};

/**
 * Writes the whole export to a temp file in the target directory, fsyncs it, links it into place
 * (never over an existing file) and fsyncs the directory: once this returns, the file is durable.
 * No temp file outlives the run: removed on any failure and on SIGINT/SIGTERM/SIGHUP; one left by
 * a kill -9 is removed by the next export to the same file (tempFiles.ts).
 */
export const writeDurably = async (path: string, bytes: Buffer): Promise<string> => {
  const target = resolve(path);
  if (await isDirectory(target)) throw namesDirectory(path);
  const dir = dirname(target);
  await removeStaleTempFiles(dir, basename(target));
  const temp = join(dir, tempNameFor(basename(target), randomUUID()));
  const forget = trackTempFile(temp);
  let handle;
  try {
    handle = await open(temp, 'wx');
  } catch (error) {
    forget();
    throw cannotWrite(path, error);
  }
  try {
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await publish(temp, target);
  } catch (error) {
    if (codeOf(error) !== undefined) throw cannotWrite(path, error);
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
    forget();
  }
  await syncDirectory(dir);
  return target;
};

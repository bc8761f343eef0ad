import { readFile } from 'node:fs/promises';
import { isLedgerError, ledgerError, sha256Hex } from '@session-ledger/core';
import { parseJsonlExport } from '../import/parseJsonl.js';
import type { PreparedExport } from '../prepareExport.js';
import type { Manifest } from '../manifest.js';
import { manifestOf } from '../render/index.js';

const failed = (path: string, what: string) =>
  ledgerError('verification_failed', `The export at ${path} does not read back as written: ${what}`, { what: `export ${path}: ${what}` });

/** The manifest an export file declares, read from its bytes: for jsonl its first line only (the file may be larger than any string: render/jsonl.ts). */
export const manifestOfBytes = (format: Manifest['format'], bytes: Buffer): Manifest =>
  manifestOf(format, (format === 'jsonl' ? bytes.subarray(0, Math.max(0, bytes.indexOf(0x0a))) : bytes).toString('utf8'));

/**
 * Reads the written file back: its bytes must hash to what was rendered, and the manifest it
 * declares must name the digest of the view that was rendered. With `restorable` (before a
 * deletion), a jsonl export must also read as `sessions import` reads it: a file the import would
 * refuse is no copy to delete from (outside test, session 26: a message nested as deep as the CLI
 * takes was exported, verified and deleted, and its export could not be imported). Returns the file's sha256.
 */
export const verifyWritten = async (path: string, prepared: PreparedExport, options: { restorable?: boolean } = {}): Promise<string> => {
  const bytes = await readFile(path);
  const written = sha256Hex(bytes);
  if (written !== prepared.sha256) throw failed(path, 'its bytes differ from the rendered export');
  const manifest = manifestOfBytes(prepared.manifest.format, bytes);
  if (manifest.digest !== prepared.manifest.digest) throw failed(path, `its manifest names digest ${manifest.digest}, the view is ${prepared.manifest.digest}`);
  if (options.restorable && prepared.manifest.format === 'jsonl') {
    try {
      parseJsonlExport(path, bytes);
    } catch (error) {
      if (!isLedgerError(error, 'import_source_invalid')) throw error;
      throw failed(path, `sessions import would refuse it (${error.message.replace(/^Cannot import [^:]*: /, '')})`);
    }
  }
  return `sha256:${written}`;
};

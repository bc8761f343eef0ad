import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ledgerError, sha256Hex, type Ledger, type RetryPolicy } from '@session-ledger/core';
import { completeIntent } from './delete/completeIntent.js';
import type { PendingIntent } from './delete/intents.js';
import type { ExportResult } from './exportSession.js';
import type { Manifest } from './manifest.js';
import { manifestOfBytes } from './file/verifyFile.js';
import { resultFromManifest } from './file/earlierRun.js';

const inProgress = (intent: PendingIntent, id: string) =>
  ledgerError(
    'precondition_failed',
    `A ${intent.reason} of ${id} was started at ${intent.at} and not completed (intent ${intent.id}${intent.export ? `, export ${intent.export.file}` : ''}): ` +
      `run the same command again, or \`sessions delete ${id}\`, to complete it`,
    { expected: 'no deletion in progress', current: `intent ${intent.id}` },
  );

const changedFile = (file: string, why: string) =>
  ledgerError('verification_failed', `The export at ${file} no longer reads back as it was verified (${why}): nothing more is deleted`, { what: `export ${file}: ${why}` });

/**
 * `export --delete-after-verified` run again after it was killed between tombstones: the intent
 * names this very file (recorded only after the file was written, read back and the conversation
 * re-checked). The file must still read back with the sha256 the intent names; then the deletion
 * is completed at the intent's revisions and the export reported from the file's manifest. An
 * intent for another file, or for a plain delete, is refused (precondition_failed) naming it.
 */
export const resumeExport = async (
  ledger: Ledger,
  intents: readonly PendingIntent[],
  options: { id: string; out: string; now: Date; retry?: RetryPolicy; onDeleted?: (done: number, total: number) => void },
): Promise<ExportResult> => {
  const file = resolve(options.out);
  const other = intents.find((intent) => intent.export?.file !== file);
  if (other) throw inProgress(other, options.id);
  const intent = intents[0]!;
  const bytes = await readFile(file).catch((error: Error) => {
    throw changedFile(file, error.message.split('\n')[0]!);
  });
  const sha = `sha256:${sha256Hex(bytes)}`;
  if (intent.export?.fileSha256 !== undefined && sha !== intent.export.fileSha256) throw changedFile(file, `sha256 ${sha}, verified ${intent.export.fileSha256}`);
  // the first line only for jsonl: the whole file as one string failed past V8's cap (512 MiB)
  const manifest: Manifest = manifestOfBytes(intent.export!.format as Manifest['format'], bytes);
  const deleted: string[] = [];
  for (const open of intents) deleted.push(...(await completeIntent(ledger, open, options)));
  return resultFromManifest(file, manifest, sha, deleted);
};

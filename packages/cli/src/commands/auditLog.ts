import { closeSync, openSync, readSync } from 'node:fs';
import type { Command } from 'commander';
import { invalidInput, isLedgerError, logUnsupported, parseDigest, signDigest, type EventStore, type LogVerifyReport, type SignedDigest, type VerifyLogOptions } from '@session-ledger/core';
import { action } from '../action.js';
import { withLedger, type CommandContext } from '../context.js';
import { EXIT_REFUSED } from '../exitCodes.js';
import { emit, failingWith, field } from '../output.js';
import { parseBigIntArgument, parseCountOption } from '../parse.js';

/** A digest is about 150 bytes, a PEM key a few KiB: a larger file is not one. */
const MAX_INPUT = 64 * 1024;

/**
 * A digest or key file, read up to MAX_INPUT bytes: `--digest /dev/zero` grew the process to 14 GB
 * before, and a 300 MB file took 21 s to be refused (outside test, session 25).
 */
const readText = (name: string, path: string): string => {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_INPUT + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_INPUT) throw invalidInput(`--${name} ${path} is larger than ${MAX_INPUT / 1024} KiB: not a ${name === 'digest' ? 'digest' : 'key'} file`, name);
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (isLedgerError(error)) throw error;
    throw invalidInput(`--${name} ${path} cannot be read: ${(error as Error).message}`, name);
  } finally {
    if (fd !== null) closeSync(fd);
  }
};

const logOf = (store: EventStore) => {
  if (!store.log) throw logUnsupported(store.name);
  return store.log;
};

/** `audit digest`: the log's size and root now, optionally signed; an auditor keeps it elsewhere. */
export const registerDigest = (audit: Command): void => {
  action(
    audit.command('digest').description('the log digest {size, root, at} to keep elsewhere').option('--sign <keyfile>', 'sign it with this Ed25519 private key (PEM)'),
    async (context, options: { sign?: string }) => {
      const key = options.sign === undefined ? undefined : readText('sign', options.sign);
      const digest = await withLedger(context, { write: false }, async (_ledger, store) => logOf(store).digest());
      const stamped: SignedDigest = { ...digest, at: context.now().toISOString() };
      const out = key === undefined ? stamped : signDigest(stamped, key);
      emit(context.io, context.json, out, () => [`size ${out.size}`, `root ${out.root}`, `at ${out.at}`, ...(out.signature ? [`signature ${out.signature.value}`] : [])].join('\n'));
    },
  );
};

/** `audit prove`: an inclusion proof of stream@revision, or of any leaf by its index (a deletion's), checkable offline (docs/audit.md). */
export const registerProve = (audit: Command): void => {
  action(
    audit
      .command('prove')
      .description("an inclusion proof of one event in the log, or of any leaf (a deletion's) with --leaf")
      .argument('[stream]')
      .argument('[revision]')
      .option('--leaf <index>', "the leaf at this index instead (a deletion's, as a retention.deleted record names it)")
      .option('--size <n>', 'in the tree of this many leaves (the size of a digest you kept; default: now)'),
    async (context, stream: string | undefined, revisionText: string | undefined, options: { leaf?: string; size?: string }) => {
      if ((options.leaf === undefined) === (stream === undefined) || (stream === undefined) !== (revisionText === undefined)) {
        throw invalidInput('audit prove takes STREAM REVISION, or --leaf INDEX', 'leaf');
      }
      const revision = revisionText === undefined ? undefined : parseBigIntArgument('revision', revisionText);
      const leaf = options.leaf === undefined ? undefined : parseCountOption('leaf', options.leaf);
      const size = options.size === undefined ? undefined : parseCountOption('size', options.size);
      const proof = await withLedger(context, { write: false }, async (_ledger, store) =>
        leaf === undefined ? logOf(store).proof(stream!, revision!, size) : logOf(store).leafProof(leaf, size),
      );
      emit(context.io, context.json, proof, () =>
        [`leaf ${proof.index} of ${proof.size}`, `leaf hash ${proof.leafHash}`, `leaf input ${proof.leafInput === null ? '(erased)' : field(proof.leafInput)}`, `root ${proof.root}`, ...proof.path.map((hash) => `path ${hash}`)].join('\n'),
      );
    },
  );
};

const render = (report: LogVerifyReport): string => {
  const erased = report.erased > 0 ? `, ${report.erased} erased by a recorded deletion` : '';
  const indexes = report.indexesChecked === undefined ? '' : report.indexesChecked ? "; the store's indexes agree with its events" : '; this store keeps no index check';
  return `ok: log of ${report.size} leaves verified (${report.events} events${erased}), root ${report.root}${indexes}`;
};

export interface LogVerifyOptions {
  digest?: string;
  publicKey?: string;
  maxBreaks?: string;
  indexes?: boolean;
}

/** The options of `audit verify` over the whole log, read before the store opens (bad input: exit 2, nothing opened). */
export const logVerifyOptions = (options: LogVerifyOptions): VerifyLogOptions => {
  const digest = options.digest === undefined ? undefined : parseDigest(readText('digest', options.digest));
  const publicKey = options.publicKey === undefined ? undefined : readText('public-key', options.publicKey);
  if (publicKey !== undefined && digest === undefined) throw invalidInput('--public-key checks the signature of a --digest: give both', 'public-key');
  const maxBreaks = options.maxBreaks === undefined ? 100 : parseCountOption('max-breaks', options.maxBreaks);
  return { digest, publicKey, maxBreaks, indexes: options.indexes === true };
};

/** Prints a whole-log report: the summary (or the JSON report) on stdout, every listed break on stderr; exit 1 when any. */
export const printLogReport = (context: CommandContext, report: LogVerifyReport): number | void => {
  if (!report.ok) failingWith(EXIT_REFUSED);
  emit(context.io, context.json, report, () => (report.ok ? render(report) : ''));
  if (report.ok) return;
  // On stderr with --json too (the chain-only verify did so): a script sees what broke either way.
  for (const item of report.breaks) context.io.err(`session-ledger: ${item.kind}${item.position === null ? '' : ` at position ${item.position}`}: ${item.message}`);
  const more = report.breakCount - report.breaks.length;
  // With --indexes the count holds the index breaks too (kind 'index'): the summary names both places.
  const where = report.indexesChecked ? "in the log and the store's indexes" : 'in the log';
  context.io.err(`session-ledger: ${report.breakCount} break${report.breakCount === 1 ? '' : 's'} ${where}${more > 0 ? ` (${more} not listed: --max-breaks)` : ''}`);
  return EXIT_REFUSED;
};

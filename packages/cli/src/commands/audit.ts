import type { Command } from 'commander';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { EXIT_CODES } from '../exitCodes.js';
import { emit, failingWith, note } from '../output.js';
import { progressFor } from '../progress.js';
import { invalidInput, verifyLog } from '@session-ledger/core';
import { logVerifyOptions, printLogReport, registerDigest, registerProve, type LogVerifyOptions } from './auditLog.js';

/**
 * `audit verify`: the whole log (every event against its chain and its leaf, deletions accounted
 * for, and a saved digest extended) where the store keeps one; with --stream, or on a store
 * without a log (EventStoreDB), the hash chains, stopping at the first broken link.
 */
export const registerAudit = (program: Command): void => {
  const audit = program.command('audit').description('verify the log commitment and the hash chains; digests and proofs');
  action(
    audit
      .command('verify')
      .description('verify the whole log (exit 1 listing every break); with --stream only that stream\'s chain')
      .option('--stream <name>', 'only this stream\'s hash chain')
      .option('--digest <file>', 'a digest saved by `audit digest --json`: the log must extend it')
      .option('--public-key <file>', 'an Ed25519 public key (PEM): the digest must be signed by it')
      .option('--max-breaks <n>', 'list at most this many breaks (default 100; all are counted)')
      .option('--indexes', "also check the store's own indexes against its events (SQLite: integrity_check, the id index, its watermarks); slower"),
    async (context, options: LogVerifyOptions & { stream?: string }) => {
      if (options.stream !== undefined && (options.digest ?? options.publicKey ?? options.maxBreaks ?? options.indexes) !== undefined) {
        throw invalidInput('--digest, --public-key, --max-breaks and --indexes check the whole log: drop --stream', 'stream');
      }
      const whole = options.stream === undefined ? logVerifyOptions(options) : undefined;
      const progress = progressFor(context, 'verify', whole ? 'leaves' : 'events');
      const onProgress = (done: number) => progress.update(done);
      const outcome = await withLedger(context, { write: false }, async (ledger, store) => {
        if (whole && (store.log || whole.digest)) return { log: await verifyLog(store, { ...whole, onProgress }) };
        return { chains: await ledger.verify({ stream: options.stream, onProgress }) };
      }).finally(() => progress.stop());
      if (outcome.log) return printLogReport(context, outcome.log);
      const report = outcome.chains;
      if (report.broken) {
        const { stream, revision, expected, found } = report.broken;
        failingWith(EXIT_CODES.chain_broken);
        if (context.json) emit(context.io, true, { ok: false, ...report }, () => '');
        context.io.err(`session-ledger: Chain broken at ${stream}@${revision}: expected ${expected}, found ${found}`);
        return EXIT_CODES.chain_broken;
      }
      emit(context.io, context.json, { ok: true, ...report }, () => `ok: ${report.streams} streams, ${report.events} events verified`);
      if (report.deletedInAll) note(context.io, context.json, `${report.deletedInAll} events of deleted streams are still in $all until a scavenge (accounted for, not checked)`);
    },
  );
  registerDigest(audit);
  registerProve(audit);
};

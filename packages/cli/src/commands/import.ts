import type { Command } from 'commander';
import { createMemoryStore, isLedgerError, type EventStore } from '@session-ledger/core';
import type { ImportReport, VerifyReport } from '@session-ledger/import-hermes';
import { budgetsFromSettings } from '@session-ledger/memory';
import { action } from '../action.js';
import { withLedger, type CommandContext } from '../context.js';
import { emit } from '../output.js';
import { parseCountOption } from '../parse.js';
import { progressFor } from '../progress.js';
import { appendThreadFor, parseThreads, SPLIT_MIN_MESSAGES } from './importThreads.js';

interface HermesOptions {
  memories?: string;
  profile: string;
  dryRun?: boolean;
  verify?: boolean;
  busyTimeout: string;
  threads?: string;
}

/** A dry run against a ledger that does not exist yet compares with an empty one. */
const withStore = async <T>(context: CommandContext, dryRun: boolean, run: (store: EventStore) => Promise<T>): Promise<T> => {
  try {
    return await withLedger(context, { write: !dryRun }, (_ledger, store) => run(store));
  } catch (error) {
    if (!dryRun || !isLedgerError(error, 'store_unavailable') || error.details.cause !== 'ENOENT') throw error;
    return run(createMemoryStore());
  }
};

/** `import`: bring sessions from another harness into the ledger. */
export const registerImport = (program: Command): void => {
  const group = program.command('import').description('import sessions and memory from another harness');

  action(
    group
      .command('hermes <path>')
      .description("import a Hermes Agent state.db (opened read-only) and, with --memories, its MEMORY.md and USER.md")
      .option('--memories <dir>', 'a Hermes memories directory (MEMORY.md, USER.md)')
      .option('--profile <name>', 'the memory profile the entries go to', 'default')
      .option('--dry-run', 'read and plan, write nothing; report what would be imported')
      .option('--verify', 'compare every conversation’s display history with the source afterwards; exit 1 on any difference')
      .option('--busy-timeout <ms>', 'how long to wait for a Hermes writer holding a lock', '5000')
      .option(
        '--threads <n>',
        `1: read, build and append on one thread; 2: append on a second thread (sqlite: ledgers only). Default: 2 for a source of ${SPLIT_MIN_MESSAGES.toLocaleString('en-US')} messages or more`,
      ),
    async (context, path: string, options: HermesOptions) => {
      // Loaded on demand, so that other commands start fast.
      const H = await import('@session-ledger/import-hermes');
      const busyTimeoutMs = parseCountOption('busy-timeout', options.busyTimeout);
      const threads = parseThreads(options.threads);
      const progress = progressFor(context, 'importing', 'rows');
      let started = false;
      // One snapshot for the import and its check, read one lineage unit at a time: a Hermes still
      // writing adds no false difference, and memory holds one unit, not the file. Opened before the
      // ledger, so a source refused (missing, locked, not Hermes) leaves no new ledger file behind
      // (outside test, session 24).
      const source = H.openHermesSource(path, { busyTimeoutMs });
      const { report, verify } = await withStore(context, Boolean(options.dryRun), async (store) => {
        try {
          const imported: ImportReport = await H.importHermes(store, {
            path,
            source,
            memoriesDir: options.memories,
            memoryBudgets: budgetsFromSettings(process.env),
            profile: options.profile,
            dryRun: options.dryRun,
            busyTimeoutMs,
            appendThread: appendThreadFor(context.storeUrl, threads, source.messageCount),
            onProgress: (done, total) => {
              if (!started) progress.start(total), (started = true);
              progress.update(done);
            },
          });
          progress.stop();
          const checked: VerifyReport | undefined = options.verify ? await H.verifyHermes(store, path, { source }) : undefined;
          return { report: imported, verify: checked };
        } finally {
          progress.stop();
        }
      }).finally(() => source.close());
      emit(context.io, context.json, verify ? { ...report, verify } : report, () =>
        [H.formatReport(report), ...(verify ? [H.formatVerify(verify)] : [])].join('\n'),
      );
      // a dry run says so too: it exited 0 where the run itself would exit 1 (outside test, session 24)
      const missing = H.leftOut(report);
      if (missing.length > 0) {
        const rows = missing.reduce((n, skip) => n + (skip.rows ?? 0), 0);
        context.io.err(`session-ledger: ${missing.length} session(s) of the source, ${rows} row(s), ${options.dryRun ? 'would not be' : 'were not'} imported (listed above): the ledger ${options.dryRun ? 'would hold' : 'holds'} less than the source`);
      }
      return (verify && verify.differences.length > 0) || missing.length > 0 ? 1 : 0;
    },
  );
};

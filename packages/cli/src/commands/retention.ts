import type { Command } from 'commander';
import { invalidInput } from '@session-ledger/core';
import type * as Retention from '@session-ledger/retention';
import { action } from '../action.js';
import { withLedger, type CommandContext } from '../context.js';
import { resolveId } from './catalog.js';
import { askYes, cancelled, idList, mustAsk } from '../confirm.js';
import { emit, note } from '../output.js';
import { progressFor } from '../progress.js';

/** Loaded on demand, so that other commands start fast. */
const load = (): Promise<typeof Retention> => import('@session-ledger/retention');

interface ExportFlags {
  format: string;
  out?: string;
  view?: string;
  lineage: string;
  only?: string;
  deleteAfterVerified?: boolean;
  recheck: string;
}

const PHASES = ['read', 'render', 'write', 'verify', 'delete'] as const;

/** The `sessions` group, whoever registers it first (the sessions commands, or this file when they are absent). */
const sessionsGroup = (program: Command): Command =>
  program.commands.find((command) => command.name() === 'sessions') ??
  program.command('sessions').description('sessions as event streams: write, resume by any id, list');

const exportText = (result: Retention.ExportResult): string =>
  [
    `exported ${result.messageCount} message(s), ${result.view} view${result.filtered ? ' (filtered)' : ''}, to ${result.file}`,
    `digest ${result.digest}`,
    ...result.streams.map((s) => `  ${s.stream}@${s.revision} ${s.chainHead ?? '-'}`),
    result.deleted.length > 0 ? `deleted: ${result.deleted.join(', ')}` : 'deleted: nothing',
  ].join('\n');

const runExport = async (context: CommandContext, id: string, flags: ExportFlags): Promise<number | void> => {
  const R = await load();
  const options = {
    format: R.checkFormat(flags.format),
    view: flags.view === undefined ? undefined : R.checkExportView(flags.view),
    lineage: R.checkLineage(flags.lineage),
    only: flags.only === undefined ? undefined : R.parseRoles(flags.only),
    now: context.now(),
  };
  if (flags.deleteAfterVerified && options.only !== undefined) throw R.filteredCannotDelete();
  if (flags.recheck !== 'heads' && flags.recheck !== 'full') throw invalidInput(`--recheck must be heads or full: ${flags.recheck}`, 'recheck');
  const recheck: Retention.Recheck = flags.recheck;
  // An empty --out named the current directory, refused as "Export file exists" (exit 1).
  if (flags.out !== undefined && flags.out.trim() === '') throw invalidInput('--out is empty: name the export file', 'out');
  if (flags.out === undefined && (flags.deleteAfterVerified || context.json)) {
    throw invalidInput(`--out FILE is required with ${flags.deleteAfterVerified ? '--delete-after-verified' : '--json'}`, 'out');
  }
  const progress = progressFor(context, 'export', `steps (${PHASES.join(', ')})`);
  const onProgress = (phase: (typeof PHASES)[number]) => progress.update(PHASES.indexOf(phase) + 1);
  progress.start(flags.deleteAfterVerified ? PHASES.length : 3);
  let result: Retention.ExportResult & { bytes?: Buffer };
  try {
    result = flags.deleteAfterVerified
      ? await withLedger(context, { write: true }, async (ledger, store) => R.exportAndDelete(ledger, await resolveId(store, id), { ...options, out: flags.out!, onProgress, recheck }))
      : await withLedger(context, { write: false }, async (_ledger, store) => R.exportSession(store, await resolveId(store, id), { ...options, out: flags.out, onProgress }));
  } finally {
    progress.stop();
  }
  const { bytes, ...report } = result;
  if (flags.out === undefined && bytes) context.io.raw(bytes.toString('utf8'));
  else emit(context.io, context.json, report, () => exportText(report));
};

/** Selectors that name one session (its id, a prefix, its title) are one deletion, reported once. */
const distinct = (ids: string[]): string[] => [...new Set(ids)];

/** Plain output of delete and prune: stdout, the ids deleted (or that would be), one a line; stderr, the tally. */
const reportBulk = (context: CommandContext, result: Retention.BulkDeleteResult, verb: string): void => {
  emit(context.io, context.json, result, () => result.deleted.join('\n'));
  note(
    context.io,
    context.json,
    [
      `${verb}: ${result.deleted.length}${result.already_deleted.length > 0 ? `, already_deleted: ${result.already_deleted.length}` : ''}, skipped_active: ${result.skipped_active.length}${result.failed.length > 0 ? `, failed: ${result.failed.length}` : ''}`,
      ...(result.streams.length > 0 ? [`streams deleted: ${result.streams.join(', ')}`] : []),
    ].join('\n'),
  );
};

/** One stderr line per id that was not deleted: the refusal in the library's words. */
const reportRefusals = (context: CommandContext, result: Retention.BulkDeleteResult) => {
  for (const id of result.skipped_active) context.io.err(`session-ledger: Cannot delete active session ${id}: a live turn holds it`);
  for (const { error } of result.failed) context.io.err(`session-ledger: ${error.message.split('\n')[0]}`);
};

/** `sessions export|delete|prune|import`: exports that declare their view, verified deletion, the live-lease guard, restore. */
export const registerRetention = (program: Command): void => {
  const sessions = sessionsGroup(program);

  action(
    sessions
      .command('export <id>')
      .description('export a conversation (any of its ids) with a manifest naming its view, streams, revisions and digest')
      .requiredOption('--format <format>', 'markdown | html | jsonl | qmd')
      .option('--out <file>', 'write here (never over an existing file); default: standard output')
      .option('--view <view>', 'display | raw (default: raw for jsonl, display otherwise)')
      .option('--lineage <lineage>', 'logical (compression chain and delegated children) | tip (the tip segment only)', 'logical')
      .option('--only <roles>', 'only these roles, comma separated (a filtered export; never deletes)')
      .option('--delete-after-verified', 'after the file is written, fsynced, read back and the conversation found unchanged, tombstone exactly the exported streams')
      .option('--recheck <how>', 'before deleting, re-read: heads (each stream head and chain hash) | full (the whole view digest)', 'heads'),
    async (context, id: string, flags: ExportFlags) => runExport(context, id, flags),
  );

  action(
    sessions
      .command('delete <ids...>')
      .description('delete conversations (any of their ids); a conversation held by a live turn is skipped (exit 1)')
      .option('--lineage <lineage>', 'logical (compression chain and delegated children) | tip (the tip segment only)', 'logical')
      .option('-y, --yes', 'delete without asking (required when stdin or stderr is not a terminal)'),
    async (context, ids: string[], flags: { lineage: string; yes?: boolean }) => {
      const R = await load();
      const lineage = R.checkLineage(flags.lineage);
      if (mustAsk(context, flags.yes, 'sessions delete')) {
        const what = lineage === 'tip' ? 'the tip segment of' : 'every segment and delegated child of';
        if (!(await askYes(context, `Delete ${what} ${ids.length} session(s) (${idList(ids)})? Nothing is exported first.`))) return cancelled(context);
      }
      const result = await withLedger(context, { write: true }, async (ledger, store) => R.deleteSessions(ledger, distinct(await Promise.all(ids.map((id) => resolveId(store, id)))), { lineage, now: context.now() }));
      reportBulk(context, result, 'deleted');
      reportRefusals(context, result);
      return result.skipped_active.length + result.failed.length === 0 ? 0 : 1; // any id live or refused (one already deleted is done)
    },
  );

  action(
    sessions
      .command('prune')
      .description('delete conversations idle for longer than AGE (never a live one)')
      .requiredOption('--older-than <age>', 'e.g. 30d, 12h')
      .option('--dry-run', 'list what would be deleted; delete nothing')
      .option('-y, --yes', 'delete without asking (required when stdin or stderr is not a terminal)'),
    async (context, flags: { olderThan: string; dryRun?: boolean; yes?: boolean }) => {
      const R = await load();
      const olderThanMs = (await import('@session-ledger/events')).parseDuration('--older-than', flags.olderThan);
      const ask = !flags.dryRun && mustAsk(context, flags.yes, 'sessions prune');
      let answeredNo = false;
      const confirm = async (rootIds: string[]) => {
        const yes = await askYes(context, `Delete ${rootIds.length} session(s) idle for longer than ${flags.olderThan} (${idList(rootIds)})? Nothing is exported first.`);
        answeredNo = !yes;
        return yes;
      };
      const result = await withLedger(context, { write: !flags.dryRun }, (ledger) =>
        R.pruneSessions(ledger, { olderThanMs, now: context.now(), dryRun: Boolean(flags.dryRun), ...(ask ? { confirm } : {}) }),
      );
      if (answeredNo) return cancelled(context);
      reportBulk(context, result, flags.dryRun ? 'would delete' : 'deleted');
      for (const { error } of result.failed) context.io.err(`session-ledger: ${error.message.split('\n')[0]}`);
      return result.failed.length === 0 ? 0 : 1;
    },
  );

  action(
    sessions
      .command('import <file>')
      .description('restore the streams of a jsonl export (same ids, revisions and hashes) into a store that lacks them'),
    async (context, file: string) => {
      const R = await load();
      const progress = progressFor(context, 'import', 'events');
      let begun = false;
      const onProgress = (done: number, total: number) => {
        if (!begun) progress.start(total), (begun = true);
        progress.update(done);
      };
      let result: Retention.ImportResult;
      try {
        result = await withLedger(context, { write: true }, (ledger) => R.importJsonl(ledger, file, { now: context.now(), onProgress }));
      } finally {
        progress.stop();
      }
      const resumed = result.resumed > 0 ? ` (${result.resumed} already stored by an interrupted run: continued from there)` : '';
      emit(context.io, context.json, result, () =>
        [`imported ${result.events} event(s) of ${result.rootId} from ${file}${resumed}`, ...result.streams.map((s) => `  ${s.stream}@${s.revision} ${s.chainHead ?? '-'}`)].join('\n'),
      );
    },
  );
};

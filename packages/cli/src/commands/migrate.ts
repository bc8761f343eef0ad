import type { Command } from 'commander';
import { invalidInput, type EventStore } from '@session-ledger/core';
import { migrateStores, type MigrationPhase, type MigrationSummary } from '@session-ledger/migrate';
import { action } from '../action.js';
import { openShowingProgress, type CommandContext } from '../context.js';
import { emit } from '../output.js';
import { parseCountOption } from '../parse.js';
import { sameStore } from '../sameStore.js';
import { progressFor, type Progress } from '../progress.js';

interface MigrateOptions {
  from: string;
  to: string;
  pageSize: string;
}

const LABELS: Record<MigrationPhase, [string, string]> = {
  copy: ['copying', 'events'],
  deletions: ['deleted streams', 'streams'],
  verify: ['verifying', 'streams'],
};

/** One bar per phase on a TTY; silent in pipes and with --json. */
const phasedProgress = (context: CommandContext) => {
  let phase: MigrationPhase | null = null;
  let bar: Progress | null = null;
  return {
    update: (next: MigrationPhase, done: number, total?: number) => {
      if (phase !== next) {
        bar?.stop();
        phase = next;
        bar = progressFor(context, ...LABELS[next]);
        if (total !== undefined) bar.start(total);
      }
      bar!.update(done);
    },
    stop: () => bar?.stop(),
  };
};

const formatSummary = (summary: MigrationSummary): string => {
  const lines = [
    `copied ${summary.eventsCopied} of ${summary.eventsRead} events read${summary.resumedAfter === null ? '' : ` (resumed after position ${summary.resumedAfter})`}`,
    ...(summary.eventsOfDeletedStreams > 0 ? [`${summary.eventsOfDeletedStreams} events of deleted streams still in the source's $all (until a scavenge) not copied`] : []),
    summary.complete
      ? `${summary.streams} streams: ${summary.verified} verified (${summary.tombstoned} tombstoned and ${summary.softDeleted} soft-deleted carried)`
      : 'stopped before the end of the source; run again to resume',
    ...summary.mismatches.map((m) => `mismatch ${m.stream}: ${m.reason} (source: ${m.source}; target: ${m.target})`),
    ...summary.sourceChainBreaks.map(
      (b) => `warning ${b.stream}: its hash chain breaks at revision ${b.revision} (${b.reason}) in the source already; copied as it is`,
    ),
  ];
  const breaks = summary.sourceChainBreaks.length;
  const verified = breaks === 0 ? 'ok: every stream verified' : `ok: every stream verified, ${breaks} with a hash chain broken in the source (warnings above)`;
  if (summary.complete) lines.push(summary.ok ? verified : `FAILED: ${summary.mismatches.length} streams differ`);
  return lines.join('\n');
};

const withStores = async <T>(context: CommandContext, fromUrl: string, toUrl: string, run: (from: EventStore, to: EventStore) => Promise<T>): Promise<T> => {
  const { store: from } = await openShowingProgress(context, fromUrl, { write: false });
  try {
    // A server source connects lazily: reach it before the target (a new SQLite file) is created.
    await from.readAll({ maxCount: 1 });
    const { store: to } = await openShowingProgress(context, toUrl, { write: true });
    try {
      return await run(from, to);
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
};

/** `migrate --from URL --to URL`: copy every stream, resumably, then verify; exit 1 on any mismatch. */
export const registerMigrate = (program: Command): void => {
  action(
    program
      .command('migrate')
      .description('copy every stream (ids, order, metadata, hash chains, deletions) from one store to another; resumable; verifies each stream, exit 1 on any mismatch')
      .requiredOption('--from <url>', 'the source store (sqlite:, esdb:, esdb+discover:, kurrentdb:)')
      .requiredOption('--to <url>', 'the target store; a run interrupted before resumes where it stopped')
      .option('--page-size <n>', 'source events per read', '500'),
    async (context, options: MigrateOptions) => {
      const pageSize = parseCountOption('page-size', options.pageSize);
      if (pageSize < 1) throw invalidInput('--page-size must be at least 1', 'page-size');
      // Checked before either store is opened: nothing is written into a source named twice.
      for (const [option, url] of [['from', options.from], ['to', options.to]] as const) {
        if (/^memory:/i.test(url.trim())) throw invalidInput(`--${option} cannot be memory: (an in-process store that is empty at start and gone at exit)`, option);
      }
      if (sameStore(options.from, options.to)) throw invalidInput(`--from and --to name the same store (${options.to}): a store cannot be migrated into itself`, 'to');
      const progress = phasedProgress(context);
      const summary = await withStores(context, options.from, options.to, (from, to) =>
        migrateStores({ from, to, pageSize, onProgress: ({ phase, done, total }) => progress.update(phase, done, total) }).finally(() =>
          progress.stop(),
        ),
      );
      emit(context.io, context.json, summary, () => formatSummary(summary));
      return summary.ok ? 0 : 1;
    },
  );
};

import type { Command } from 'commander';
import { invalidInput, jsonSafe, type EventStore } from '@session-ledger/core';
import {
  adoptedToJson,
  adoptHandEdits,
  batchResultToJson,
  budgetsFromSettings,
  createMarkdownMirror,
  createMemoryLedger,
  entryToJson,
  MEMORY_SETTINGS,
  parseBatch,
  readProviderStatus,
  readProviderStatuses,
  resumeProviders,
  startMemoryFanOut,
  type BatchResult,
  type Causation,
  type EntryChoice,
  type MemoryOperation,
  type MemoryTarget,
  type ProviderStatus,
} from '@session-ledger/memory';
import { action } from '../action.js';
import { withLedger, type CommandContext } from '../context.js';
import { emit, field, note } from '../output.js';
import { parseCountOption, parseWellFormedJson, readUtf8File } from '../parse.js';

interface WriteFlags {
  profile?: string;
  target?: string;
  content?: string;
  old?: string;
  entryId?: string;
  batchId?: string;
  session?: string;
  turn?: string;
  memoryBudget?: string;
  userBudget?: string;
  expectedRevision?: string;
}

const oneLine = (text: string | null) => (text === null ? '-' : JSON.stringify(text));

const parseTarget = (text: string | undefined): MemoryTarget => {
  if (text !== 'memory' && text !== 'user') throw invalidInput(`--target must be memory or user: ${text ?? '(missing)'}`, 'target');
  return text;
};

const required = (name: string, value: string | undefined): string => {
  if (value === undefined) throw invalidInput(`--${name} is required`, name);
  return value;
};

/** The environment's budgets, overridden by the flags given (each read as a count: `--memory-budget ''` is bad input, never unset). */
const budgetsOf = (flags: WriteFlags) => ({
  ...budgetsFromSettings(process.env),
  ...(flags.memoryBudget === undefined ? {} : { memory: parseCountOption('memory-budget', flags.memoryBudget) }),
  ...(flags.userBudget === undefined ? {} : { user: parseCountOption('user-budget', flags.userBudget) }),
});

const causationOf = (flags: WriteFlags): Causation => ({
  ...(flags.session ? { sessionId: flags.session } : {}),
  ...(flags.turn ? { turnId: flags.turn } : {}),
});

const writeOptions = (command: Command): Command =>
  command
    .option('--profile <profile>', 'memory profile (stream memory-<profile>)', 'default')
    .option('--session <id>', 'the session that caused the change (causation metadata)')
    .option('--turn <id>', 'the turn that caused the change (causation metadata)')
    .option('--memory-budget <chars>', `character budget of the memory target (env ${MEMORY_SETTINGS.memoryBudget}, default 2200)`)
    .option('--user-budget <chars>', `character budget of the user target (env ${MEMORY_SETTINGS.userBudget}, default 1375)`)
    .option('--expected-revision <n>', "the profile's revision the selectors were chosen at (memory list prints it): refused (exit 1) if another writer changed the profile since")
    .option('--batch-id <id>', 'your id for the batch (an idempotency key): run again with it, the same operations answer the first commit and write nothing; other operations under it are refused');

/** --old or --entry-id: how a replace or remove names its entry, exactly one. */
const choiceOf = (flags: WriteFlags): EntryChoice => {
  if (flags.old !== undefined && flags.entryId !== undefined) throw invalidInput('Give --old or --entry-id, not both', 'old');
  if (flags.entryId !== undefined) return { entryId: flags.entryId };
  return { old: required('old', flags.old) };
};

/** --expected-revision as the memory ledger takes it: a whole number (a revision the profile reached). */
const expectedOf = (flags: WriteFlags): { expectedRevision?: bigint } => {
  if (flags.expectedRevision === undefined) return {};
  if (!/^\d{1,19}$/.test(flags.expectedRevision)) throw invalidInput(`--expected-revision must be a revision number: ${flags.expectedRevision}`, 'expected-revision');
  return { expectedRevision: BigInt(flags.expectedRevision) };
};

const commit = async (context: CommandContext, flags: WriteFlags, operations: () => MemoryOperation[]) => {
  const ops = operations();
  const budgets = budgetsOf(flags);
  const result = await withLedger(context, { write: true }, (_ledger, store) =>
    createMemoryLedger(store, { budgets }).apply(ops, {
      profile: flags.profile,
      causation: causationOf(flags),
      ...expectedOf(flags),
      ...(flags.batchId === undefined ? {} : { batchId: flags.batchId }),
    }),
  );
  emit(context.io, context.json, batchResultToJson(result), () => receiptLines(result));
};

const receiptLines = (result: BatchResult) =>
  result.receipts
    .map((r) => `${r.op}\t${r.target}\t${r.entryId}\t${oneLine(r.previousContent)} -> ${oneLine(r.content)}`)
    .concat(`memory-${result.profile}@${result.revision}${result.written ? '' : ' (committed before under this batch id: nothing written)'}`)
    .join('\n');

const statusLine = (status: ProviderStatus) => {
  const where = status.failed ? ` at ${status.failed.stream}@${status.failed.revision}` : '';
  const parked = status.state === 'parked' ? `: ${field(status.reason ?? '')}${where}` : '';
  const skipped = status.skipped > 0 ? ` (${status.skipped} legacy mutation(s) skipped)` : '';
  return `${field(status.name)}\t${status.state}${parked}\tcheckpoint ${status.checkpoint ?? '-'}${skipped}`;
};

/** `memory`: the memory ledger (entries, ordered batches, providers, the Markdown mirror). */
export const registerMemory = (program: Command): void => {
  const memory = program.command('memory').description('the memory ledger: entries, batches, providers');

  action(
    memory
      .command('list')
      .description('entries of a profile, in order')
      .option('--profile <profile>', 'memory profile', 'default')
      .option('--target <target>', 'memory or user (default: both)'),
    async (context, flags: { profile: string; target?: string }) => {
      const target = flags.target === undefined ? undefined : parseTarget(flags.target);
      const state = await withLedger(context, { write: false }, (_ledger, store) => createMemoryLedger(store).state(flags.profile));
      const entries = target === undefined ? state.entries : state.entries.filter((entry) => entry.target === target);
      emit(context.io, context.json, entries.map(entryToJson), () =>
        entries.map((entry) => `${entry.target}\t${entry.id}\t${JSON.stringify(entry.content)}`).join('\n'),
      );
      // The revision to fence a write with (--expected-revision); on stderr, so stdout stays the entries.
      context.io.err(`memory-${state.profile}@${state.revision ?? -1n}`);
    },
  );

  action(
    memory
      .command('state')
      .description("a profile's entries with the revision they were read at (give it to --expected-revision)")
      .option('--profile <profile>', 'memory profile', 'default'),
    async (context, flags: { profile: string }) => {
      const state = await withLedger(context, { write: false }, (_ledger, store) => createMemoryLedger(store).state(flags.profile));
      const revision = state.revision ?? -1n;
      // One document for a script: memory list --json printed the entries and the revision only on stderr (outside test, session 34, helper-94 F4).
      emit(context.io, context.json, jsonSafe({ profile: state.profile, revision, position: state.position, entries: state.entries.map(entryToJson) }), () =>
        [`memory-${state.profile}@${revision}`, ...state.entries.map((entry) => `${entry.target}\t${entry.id}\t${JSON.stringify(entry.content)}`)].join('\n'),
      );
    },
  );

  action(
    writeOptions(memory.command('add').description('add an entry').option('--target <target>', 'memory or user').option('--content <text>', 'the entry')),
    async (context, flags: WriteFlags) =>
      commit(context, flags, () => [{ op: 'add', target: parseTarget(flags.target), content: required('content', flags.content) }]),
  );

  action(
    writeOptions(
      memory
        .command('replace')
        .description('replace the entry a selector picks (exact match, else a unique substring)')
        .option('--target <target>', 'memory or user')
        .option('--old <selector>', 'text of the entry to replace')
        .option('--entry-id <id>', 'or the id of the entry to replace (memory list prints it)')
        .option('--content <text>', 'the new entry'),
    ),
    async (context, flags: WriteFlags) =>
      commit(context, flags, () => [
        { op: 'replace', target: parseTarget(flags.target), ...choiceOf(flags), content: required('content', flags.content) },
      ]),
  );

  action(
    writeOptions(
      memory
        .command('remove')
        .description('remove the entry a selector picks')
        .option('--target <target>', 'memory or user')
        .option('--old <selector>', 'text of the entry to remove')
        .option('--entry-id <id>', 'or the id of the entry to remove (memory list prints it)'),
    ),
    async (context, flags: WriteFlags) =>
      commit(context, flags, () => [{ op: 'remove', target: parseTarget(flags.target), ...choiceOf(flags) }]),
  );

  action(
    writeOptions(
      memory
        .command('apply')
        .description('apply an ordered batch as one commit: [{"op","target","content"?,"old"? or "entryId"?}, ...]')
        .option('--file <path>', 'the batch as JSON ("-": standard input)'),
    ),
    async (context, flags: WriteFlags & { file?: string }) =>
      commit(context, flags, () => {
        const path = required('file', flags.file);
        const text = readUtf8File('the batch file', path, 'file');
        return parseBatch(parseWellFormedJson(`the batch file ${path}`, text, 'file'));
      }),
  );

  const providers = memory.command('providers').description('memory providers and their fan-out');

  action(
    providers.command('status [name]').description('state, parking reason and checkpoint of each provider'),
    async (context, name: string | undefined) => {
      const statuses = await withLedger(context, { write: false }, async (_ledger, store) =>
        name === undefined ? readProviderStatuses(store) : [await readProviderStatus(store, name)],
      );
      emit(context.io, context.json, name === undefined ? statuses : statuses[0], () => statuses.map(statusLine).join('\n'));
      if (statuses.length === 0) note(context.io, context.json, 'no memory providers registered');
    },
  );

  action(
    providers.command('resume [name]').description('un-park a provider (or every parked one); it gets the failed mutation again first'),
    async (context, name: string | undefined) => {
      const resumed = await withLedger(context, { write: true }, (_ledger, store) => resumeProviders(store, name));
      emit(context.io, context.json, { resumed }, () => resumed.map(field).join('\n'));
      note(context.io, context.json, resumed.length === 0 ? 'nothing parked' : `resumed ${resumed.length} provider(s)`);
    },
  );

  action(
    providers
      .command('run')
      .description('run the fan-out to the Markdown mirror until SIGINT/SIGTERM (or, with --once, until caught up)')
      .option('--mirror <dir>', `directory of MEMORY.md and USER.md (env ${MEMORY_SETTINGS.mirror})`)
      .option('--mirror-profile <profile>', `profile the mirror follows (env ${MEMORY_SETTINGS.mirrorProfile})`, undefined)
      .option('--mirror-name <name>', `provider name: its checkpoint and parked state (env ${MEMORY_SETTINGS.mirrorName}; default markdown-mirror; one per profile mirrored)`)
      .option('--once', 'stop once everything stored has been delivered (or the provider is parked)')
      .option('--attempts <n>', 'attempts per mutation before parking', '5'),
    async (context, flags: { mirror?: string; mirrorProfile?: string; mirrorName?: string; once?: boolean; attempts: string }) => {
      const dir = flags.mirror ?? process.env[MEMORY_SETTINGS.mirror];
      if (!dir) throw invalidInput(`--mirror DIR (or ${MEMORY_SETTINGS.mirror}) is required`, 'mirror');
      const attempts = parseCountOption('attempts', flags.attempts);
      if (attempts < 1) throw invalidInput('--attempts must be at least 1', 'attempts');
      const mirror = createMarkdownMirror({
        dir,
        profile: flags.mirrorProfile ?? (process.env[MEMORY_SETTINGS.mirrorProfile] || undefined),
        name: flags.mirrorName ?? (process.env[MEMORY_SETTINGS.mirrorName] || undefined),
      });
      return withLedger(context, { write: true }, async (_ledger, store) => {
        const fanOut = startMemoryFanOut(store, [mirror], {
          retry: { attempts },
          onWarning: (warning) => context.io.err(`session-ledger: provider ${warning.provider}: ${warning.message}`),
        });
        await fanOut.caughtUp;
        if (!flags.once) {
          if (!context.json) context.io.err(`session-ledger: mirroring profile ${mirror.profile} to ${dir}`);
          await new Promise<void>((resolve) => {
            process.once('SIGINT', resolve);
            process.once('SIGTERM', resolve);
          });
        }
        await fanOut.stop();
        return reportStatus(context, store, mirror.name);
      });
    },
  );

  const mirror = memory.command('mirror').description('the Markdown mirror');

  action(
    mirror
      .command('rebuild')
      .description('rewrite MEMORY.md and USER.md from the stream (repair)')
      .option('--dir <dir>', `mirror directory (env ${MEMORY_SETTINGS.mirror})`)
      .option('--profile <profile>', 'memory profile', 'default'),
    async (context, flags: { dir?: string; profile: string }) => {
      const dir = flags.dir ?? process.env[MEMORY_SETTINGS.mirror];
      if (!dir) throw invalidInput(`--dir DIR (or ${MEMORY_SETTINGS.mirror}) is required`, 'dir');
      const result = await withLedger(context, { write: false }, (_ledger, store) => createMarkdownMirror({ dir, profile: flags.profile }).rebuild(store));
      emit(context.io, context.json, { dir, profile: flags.profile, entries: result.entries, position: result.position }, () =>
        `rebuilt ${dir}: ${result.entries} entries`,
      );
    },
  );

  action(
    mirror
      .command('adopt')
      .description('keep the edits made in a mirrored directory (by hand or by Hermes): commit them to the profile as one batch, then rewrite the directory')
      .option('--dir <dir>', `mirror directory (env ${MEMORY_SETTINGS.mirror})`)
      .option('--profile <profile>', 'memory profile', 'default')
      .option('--memory-budget <chars>', `character budget of the memory target (env ${MEMORY_SETTINGS.memoryBudget}, default 2200)`)
      .option('--user-budget <chars>', `character budget of the user target (env ${MEMORY_SETTINGS.userBudget}, default 1375)`)
      .option('--dry-run', 'print the edits as operations; commit and write nothing'),
    async (context, flags: WriteFlags & { dir?: string; profile: string; dryRun?: boolean }) => {
      const dir = flags.dir ?? process.env[MEMORY_SETTINGS.mirror];
      if (!dir) throw invalidInput(`--dir DIR (or ${MEMORY_SETTINGS.mirror}) is required`, 'dir');
      const budgets = budgetsOf(flags);
      const adopted = await withLedger(context, { write: !flags.dryRun }, (_ledger, store) =>
        adoptHandEdits(store, createMarkdownMirror({ dir, profile: flags.profile }), createMemoryLedger(store, { budgets }), { dryRun: flags.dryRun === true }),
      );
      emit(context.io, context.json, adoptedToJson(adopted), () =>
        [
          ...adopted.operations.map((op) => `${op.op}\t${op.target}\t${op.op === 'add' ? '' : op.entryId ?? ''}\t${op.op === 'remove' ? '' : JSON.stringify(op.content)}`),
          adopted.rebuilt === null
            ? `dry run: ${adopted.operations.length} edit(s) to commit; nothing written`
            : `adopted ${adopted.operations.length} edit(s) into memory-${adopted.profile}; rewrote ${dir}: ${adopted.rebuilt.entries} entries (then: session-ledger memory providers resume)`,
        ].join('\n'),
      );
    },
  );
};

/** After a run: print the provider's status; exit 1 when it ended parked. */
const reportStatus = async (context: CommandContext, store: EventStore, name: string): Promise<number> => {
  const status = await readProviderStatus(store, name);
  emit(context.io, context.json, status, () => statusLine(status));
  return status.state === 'parked' ? 1 : 0;
};

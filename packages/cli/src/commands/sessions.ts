import type { Command } from 'commander';
import { invalidInput, toJson } from '@session-ledger/core';
import type { CatalogRow, CatalogStats } from '@session-ledger/read-models';
import type * as Sessions from '@session-ledger/sessions';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { emit, field, note } from '../output.js';
import { oneOf } from './sessionInput.js';
import { listPage, resolveId, stats, type ListFlags } from './catalog.js';

/**
 * An id as a command line takes it: one beginning with `-` after `--`, or the parser reads it as an
 * option (`sessions resume -dash` failed with "unknown option"; outside test, session 23).
 */
const asArgument = (id: string): string => (id.startsWith('-') ? `-- ${id}` : id);

/** Loaded on demand, so that other commands start fast. */
const load = (): Promise<typeof Sessions> => import('@session-ledger/sessions');

const LINKS = ['compression', 'delegation', 'branch', 'reset'] as const;

const writer = (ledger: Parameters<Parameters<typeof withLedger>[2]>[0], now: () => Date) => ({ ledger, now });

/**
 * `sessions list` in plain text: always the same seven tab-separated columns, so a live row does not
 * shift the rest: root, tip, segments, messages, last activity (or -), state (live, ended or idle),
 * title (or -; its tabs and newlines escaped).
 */
const listRow = (row: CatalogRow): string =>
  [
    row.rootId,
    row.tipId,
    `${row.segments.length} seg`,
    `${row.messages} msg`,
    row.lastActivity ?? '-',
    row.live ? 'live' : row.ended ? 'ended' : 'idle',
    row.title ? field(row.title) : '-',
  ].join('\t');

/** `sessions stats` in plain text: totals, then one line per source and per model. */
const statsText = (totals: CatalogStats): string =>
  [
    `sessions\t${totals.sessions}`,
    `messages\t${totals.messages}`,
    ...totals.bySource.map((row) => `source\t${row.source === null ? '-' : field(row.source)}\t${row.sessions} sessions\t${row.messages} msg`),
    ...totals.byModel.map((row) => `model\t${row.model === null ? '-' : field(row.model)}\t${row.sessions} sessions\t${row.messages} msg`),
    `store\t${totals.storeBytes === null ? '-' : `${totals.storeBytes} bytes`}`,
  ].join('\n');

/** `sessions`: start, show and resume by any id, list, compact, compress, end. */
export const registerSessions = (program: Command): void => {
  const sessions = program.command('sessions').description('sessions as event streams: write, resume by any id, list');

  action(
    sessions
      .command('start')
      .description('start a session (or a child of one); prints the id that resumes it')
      .option('--id <id>', 'session id (default: a new UUID)')
      .option('--parent <id>', 'start a child of this conversation')
      .option('--link <kind>', `how the child relates: ${LINKS.join('|')}`)
      .option('--model <model>', 'the model the session talks to, e.g. claude-sonnet-4 (stored on session.started)')
      .option('--source <source>', 'where the session comes from, e.g. cli, hermes, telegram (stored on session.started)')
      .option('--title <title>', 'a human title, shown by sessions list')
      .option('--summary <text>', 'with --link compression: what replaces the parent history in the child context'),
    async (context, options: { id?: string; parent?: string; link?: string; model?: string; source?: string; title?: string; summary?: string }) => {
      const S = await load();
      const link = oneOf('link', options.link, LINKS);
      if (link && !options.parent) throw invalidInput('--link needs --parent');
      const result = await withLedger(context, { write: true }, async (ledger, store) => {
        const parent = options.parent === undefined ? undefined : await resolveId(store, options.parent);
        if (link === 'compression') {
          const child = await S.compressSession(writer(ledger, context.now), parent!, { summary: options.summary ?? '', childId: options.id });
          return { sessionId: child.sessionId, rootId: child.rootId, revision: child.revision, created: child.written };
        }
        return S.startSession(writer(ledger, context.now), {
          id: options.id,
          parentId: parent,
          link: (link ?? (options.parent ? 'delegation' : undefined)) as 'delegation' | 'branch' | 'reset' | undefined,
          model: options.model,
          source: options.source,
          title: options.title,
        });
      });
      emit(context.io, context.json, { sessionId: result.sessionId, rootId: result.rootId, revision: result.revision, created: result.created }, () => result.sessionId);
      note(context.io, context.json, `resume with: session-ledger sessions resume ${asArgument(result.rootId)}`);
    },
  );

  action(
    sessions
      .command('show <id>')
      .description('the whole logical conversation, given its root, tip or any segment id')
      .option('--view <view>', 'display | active | raw', 'display'),
    async (context, id: string, options: { view: string }) => {
      const S = await load();
      const view = S.checkViewName(options.view);
      const loaded = await withLedger(context, { write: false }, async (_ledger, store) => S.loadConversation(store, await resolveId(store, id), { view }));
      emit(context.io, context.json, S.viewToJson(loaded), () =>
        view === 'display' ? S.renderTranscript(loaded as never) : toJson(S.viewToJson(loaded), 2),
      );
    },
  );

  action(
    sessions.command('resume <id>').description('the display transcript as text, from any id of the conversation'),
    async (context, id: string) => {
      const S = await load();
      const loaded = await withLedger(context, { write: false }, async (_ledger, store) => S.loadConversation(store, await resolveId(store, id), { view: 'display' }));
      emit(context.io, context.json, S.viewToJson(loaded), () => S.renderTranscript(loaded));
    },
  );

  action(
    sessions
      .command('list')
      .description('one row per logical conversation, newest activity first, a page at a time (from the catalog read model)')
      .option('--limit <n>', 'rows per page, 1..200', '50')
      .option('--cursor <cursor>', 'the next page: the cursor the previous page printed')
      .option('--source <source>', 'only conversations from this source')
      .option('--live', 'only conversations a live turn holds now')
      .option('--since <time>', 'only conversations active since an ISO time or a duration back from now (7d, 12h)'),
    async (context, flags: ListFlags) => {
      const page = await withLedger(context, { write: false }, (_ledger, store) => listPage(context, store, flags));
      emit(context.io, context.json, page, () => page.sessions.map(listRow).join('\n'));
      if (page.nextCursor !== null) note(context.io, context.json, `more: session-ledger sessions list --cursor ${page.nextCursor}`);
    },
  );

  action(sessions.command('stats').description('conversations and messages, by source and by model, and the store size'), async (context) => {
    const totals = await withLedger(context, { write: false }, (_ledger, store) => stats(store));
    emit(context.io, context.json, totals, () => statsText(totals));
  });

  action(
    sessions
      .command('compact <session>')
      .description('in-place compaction: every active message up to MESSAGE leaves the active view, replaced by the summary')
      .requiredOption('--through <message>', 'the last message to compact')
      .requiredOption('--summary <text>', 'what replaces them in the model context')
      .option('--summary-id <id>', 'the summary id (default: a new one); run again with it, the command stores nothing new'),
    async (context, session: string, options: { through: string; summary: string; summaryId?: string }) => {
      const S = await load();
      const result = await withLedger(context, { write: true }, async (ledger, store) =>
        S.compactHistory(writer(ledger, context.now), await resolveId(store, session), { throughMessageId: options.through, summary: options.summary, summaryId: options.summaryId }),
      );
      emit(context.io, context.json, result, () => result.summaryId);
      note(context.io, context.json, result.written === false ? `already stored: summary ${result.summaryId}` : `compacted through ${options.through}; the summary's id is on stdout`);
    },
  );

  action(
    sessions
      .command('compress <session>')
      .description('compression: the session continues in a new child segment; prints the id that resumes the whole conversation')
      .requiredOption('--summary <text>', 'what replaces the history in the child context')
      .option('--child-id <id>', 'the new segment id (default: a new one); run again with it, the command stores nothing new'),
    async (context, session: string, options: { summary: string; childId?: string }) => {
      const S = await load();
      const result = await withLedger(context, { write: true }, async (ledger, store) =>
        S.compressSession(writer(ledger, context.now), await resolveId(store, session), { summary: options.summary, childId: options.childId }),
      );
      emit(context.io, context.json, { sessionId: result.sessionId, rootId: result.rootId, parentId: result.parentId, revision: result.revision, written: result.written }, () => result.sessionId);
      note(context.io, context.json, `write to ${result.sessionId}; resume the whole conversation with: session-ledger sessions resume ${asArgument(result.rootId)}`);
    },
  );

  action(
    sessions
      .command('end <session>')
      .description('end the session (while a live turn holds it, only that turn may: --turn)')
      .option('--reason <reason>', 'why it ended, e.g. user_exit (shown in exports)')
      .option('--turn <turn>', 'the live turn ending it'),
    async (context, session: string, options: { reason?: string; turn?: string }) => {
      const S = await load();
      const result = await withLedger(context, { write: true }, async (ledger, store) =>
        S.endSession(writer(ledger, context.now), await resolveId(store, session), { reason: options.reason, turnId: options.turn }),
      );
      emit(context.io, context.json, result, () => '');
      note(context.io, context.json, `ended ${session}`);
    },
  );
  action(
    sessions
      .command('reopen <session>')
      .description('reopen an ended session, so it takes writes again (a harness resumed it); an open one is left as it is'),
    async (context, session: string) => {
      const S = await load();
      const result = await withLedger(context, { write: true }, async (ledger, store) => S.reopenSession(writer(ledger, context.now), await resolveId(store, session)));
      emit(context.io, context.json, result, () => '');
      note(context.io, context.json, result.written ? `reopened ${session}` : `${session} is open already`);
    },
  );
};

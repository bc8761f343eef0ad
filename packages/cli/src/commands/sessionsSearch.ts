import type { Command } from 'commander';
import type * as ReadModels from '@session-ledger/read-models';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { emit, field } from '../output.js';
import { parseCountOption } from '../parse.js';

/** Loaded on demand, so that other commands start fast. */
const load = (): Promise<typeof ReadModels> => import('@session-ledger/read-models');

/** Around each match in a human line: visible characters, since everything printed is escaped (no ANSI). */
export const MARK_OPEN = '«';
export const MARK_CLOSE = '»';

/** The snippet with its matches between « and », then escaped as one field (newlines and tabs included). */
export const markedSnippet = (hit: ReadModels.SearchHit): string => {
  let text = '';
  let at = 0;
  for (const [start, end] of hit.marks) {
    text += `${hit.snippet.slice(at, start)}${MARK_OPEN}${hit.snippet.slice(start, end)}${MARK_CLOSE}`;
    at = end;
  }
  return field(text + hit.snippet.slice(at));
};

/** One hit a line, four tab-separated columns: root, message, role, the snippet with the match marked. */
const hitLine = (hit: ReadModels.SearchHit): string => [field(hit.rootId), field(hit.messageId), hit.role, markedSnippet(hit)].join('\t');

/** `sessions search QUERY`: full-text search over the display history, best first. */
export const registerSessionsSearch = (program: Command): void => {
  const sessions = program.commands.find((command) => command.name() === 'sessions');
  if (!sessions) throw new Error('sessions search needs the sessions command group registered first');
  action(
    sessions
      .command('search <query>')
      .description('full-text search over what was said (compacted and rewritten messages, tool calls and results), best first')
      .option('--limit <n>', 'how many hits, 1 to 100', '20')
      .option('--role <role>', 'only messages of this role: user, assistant, tool or system')
      .option('--source <source>', 'only conversations from this source, e.g. hermes, cli')
      .option('--since <time>', 'only messages at or after an ISO time, or within a duration such as 7d or 12h'),
    async (context, query: string, options: { limit?: string; role?: string; source?: string; since?: string }) => {
      const M = await load();
      const { parseRole } = await import('@session-ledger/events');
      const search = {
        q: query,
        limit: options.limit === undefined ? undefined : parseCountOption('limit', options.limit),
        role: options.role === undefined ? undefined : parseRole('--role', options.role),
        source: options.source,
        since: options.since === undefined ? undefined : M.parseSince('--since', options.since, context.now()).toISOString(),
      };
      const result = await withLedger(context, { write: false }, async (_ledger, store) => (await M.openSearch(store)).search(search));
      emit(context.io, context.json, result, () => result.hits.map(hitLine).join('\n'));
    },
  );
};

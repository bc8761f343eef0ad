import { invalidInput } from '@session-ledger/core';
import type { CommandContext } from './context.js';

/** The ids a question names: the first ten, then how many more. */
export const idList = (ids: readonly string[]): string =>
  ids.length <= 10 ? ids.join(', ') : `${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more`;

/**
 * Before a destructive command, ahead of opening the store: with `--yes`, no question (false); on a
 * terminal (stdin and stderr), a question to ask (true); anywhere else (a script, a pipe, CI) the
 * command is refused with exit 2, so nothing is destroyed by a command nobody confirmed. As Hermes'
 * `hermes sessions delete|prune`, which ask `[y/N]` unless `--yes`; where Hermes reads an
 * end of input as no and exits 0, this refuses outright and says why.
 */
export const mustAsk = (context: CommandContext, yes: boolean | undefined, command: string): boolean => {
  if (yes) return false;
  if (!context.io.canAsk) throw invalidInput(`${command} deletes without an export and cannot be undone: give --yes to confirm (no terminal to ask on)`, 'yes');
  return true;
};

/** Asks `QUESTION [y/N]` on the terminal: only y or yes (any case) goes ahead. */
export const askYes = async (context: CommandContext, question: string): Promise<boolean> =>
  /^\s*(y|yes)\s*$/i.test(await context.io.ask(`${question} [y/N] `));

/** A question answered no: one line on stderr, exit 1 (refused), nothing deleted. */
export const cancelled = (context: CommandContext): number => {
  context.io.err('session-ledger: cancelled: nothing deleted');
  return 1;
};

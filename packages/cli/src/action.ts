import type { Command } from 'commander';
import { contextOf, type CommandContext } from './context.js';
import { exitCodeFor } from './output.js';

/** Where an action leaves its exit code; main() reads it after parsing. */
export const exitState = { code: 0 };

type Handler<A extends unknown[]> = (context: CommandContext, ...args: A) => Promise<number | void>;

/**
 * Binds a handler to a command: builds the context from the global options, runs it,
 * and turns any error into its one-line message and documented exit code.
 */
export const action = <A extends unknown[]>(command: Command, handler: Handler<A>): Command =>
  command.action(async (...args: unknown[]) => {
    const self = args[args.length - 1] as Command;
    const context = contextOf(self);
    try {
      exitState.code = (await handler(context, ...(args.slice(0, -1) as A))) ?? 0;
    } catch (error) {
      exitState.code = exitCodeFor(context.io, context.json, error);
    }
  });

import type { Command } from 'commander';
import { invalidInput, toJson } from '@session-ledger/core';
import { exitState } from './action.js';
import { EXIT_USAGE } from './exitCodes.js';
import { exitCodeFor, exitQuietlyOnClosedPipe, processIo } from './output.js';
import { createProgram, isCommanderExit } from './program.js';

/**
 * Whether the command line asked for --json: as the parser read it, or, when it stopped before the
 * global options were read (an unknown command), given before the command's name.
 */
const jsonAsked = (program: Command, argv: string[]): boolean => {
  if (program.opts().json === true) return true;
  const end = argv.findIndex((arg) => !arg.startsWith('-') || arg === '--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
};

/** Runs one command line and returns its exit code. */
export const main = async (argv: string[]): Promise<number> => {
  exitQuietlyOnClosedPipe();
  const io = processIo();
  const program = createProgram(io);
  exitState.code = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitState.code;
  } catch (error) {
    if (isCommanderExit(error)) {
      // `commander.help` is help shown because no command was given (on stderr): bad usage.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.executeSubCommandAsync' || error.exitCode === 0) return 0;
      // The parser's refusals (an unknown option, a missing argument) are bad input like any other:
      // under --json, the same one JSON document on stdout (its line on stderr is written already).
      if (jsonAsked(program, argv)) io.out(toJson({ error: invalidInput(error.message.replace(/^error: /, '').split('\n')[0]!).toJSON() }, 2));
      return EXIT_USAGE;
    }
    return exitCodeFor(io, false, error);
  }
};

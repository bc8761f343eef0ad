import { exitState } from './action.js';
import { EXIT_USAGE } from './exitCodes.js';
import { exitCodeFor, exitQuietlyOnClosedPipe, processIo } from './output.js';
import { createProgram, isCommanderExit } from './program.js';

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
      return EXIT_USAGE;
    }
    return exitCodeFor(io, false, error);
  }
};

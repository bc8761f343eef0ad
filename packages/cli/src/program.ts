import { Command, CommanderError } from 'commander';
import { COMMAND_GROUPS } from './commands/index.js';
import { helpFooter } from './help.js';
import type { Io } from './output.js';

export const createProgram = (io: Io): Command => {
  const program = new Command('session-ledger')
    .description('An event-sourced session ledger for agent harnesses')
    .version('0.1.0')
    .option('--store <url>', 'store URL: sqlite:PATH, memory:, esdb://HOST:PORT (env SESSION_LEDGER_STORE)')
    .option('--json', 'print one JSON document on stdout')
    .addHelpText('after', helpFooter())
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      outputError: (text, write) => write(`session-ledger: ${text.replace(/^error: /, '').split('\n')[0]}\n`),
    });
  for (const register of COMMAND_GROUPS) register(program);
  const override = (command: Command) => {
    command.exitOverride().configureOutput(program.configureOutput());
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
  return program;
};

export const isCommanderExit = (error: unknown): error is CommanderError => error instanceof CommanderError;

import { createInterface } from 'node:readline/promises';
import { isLedgerError, tooDeepToWrite, toJson } from '@session-ledger/core';
import { EXIT_CODES, EXIT_INTERNAL } from './exitCodes.js';
import { terminalSafe } from './terminalSafe.js';

export interface Io {
  /** stdout: the command's values, one a line, or its one JSON document. Escaped by `terminalSafe`. */
  out: (text: string) => void;
  /** stderr: hints, human notes and errors. Escaped by `terminalSafe`. */
  err: (text: string) => void;
  /** stdout as is: an export file written to a pipe or a file (escaped when stdout is a terminal). */
  raw: (text: string) => void;
  isTty: boolean;
  /** Both stdin and stderr are terminals: a person can be asked a question. */
  canAsk: boolean;
  /** Asks on stderr, reads one line from stdin ('' at end of input). */
  ask: (question: string) => Promise<string>;
}

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

export const processIo = (): Io => ({
  out: (text) => void process.stdout.write(terminalSafe(line(text))),
  err: (text) => void process.stderr.write(terminalSafe(line(text))),
  raw: (text) => void process.stdout.write(process.stdout.isTTY ? terminalSafe(text) : text),
  isTty: Boolean(process.stdout.isTTY && process.stderr.isTTY),
  canAsk: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  ask: async (question) => {
    const reader = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
    try {
      process.stderr.write(terminalSafe(question));
      return await new Promise<string>((resolve) => {
        reader.once('line', resolve);
        reader.once('close', () => resolve(''));
      });
    } finally {
      reader.close();
    }
  },
});

/** A stored value printed inside one line (a column, a label): its newlines and tabs are escaped too. */
export const field = (text: string): string => terminalSafe(text, 'field');

/** One JSON document on stdout with --json; otherwise the text rendering (nothing when it is empty). */
export const emit = (io: Io, json: boolean, value: unknown, text: () => string): void => {
  if (json) return io.out(toJson(value, 2));
  const rendered = text();
  if (rendered !== '') io.out(rendered);
};

/** A hint or a human note: stderr, so that `ID=$(session-ledger ...)` captures the value alone. Silent with --json. */
export const note = (io: Io, json: boolean, text: string): void => {
  if (!json) io.err(text);
};

/**
 * The exit status a command has decided on before it prints its failure: a reader that goes away
 * while it prints (`audit verify 2>&1 | head -1`) must not turn it into 0 (exitQuietlyOnClosedPipe).
 * A tampered ledger's verify exited 0 that way (outside test, session 25).
 */
let decided = 0;
export const failingWith = (code: number): number => {
  decided = code;
  return code;
};

/** Every failure ends as one line on stderr (and the error object with --json) and a documented exit code. */
export const exitCodeFor = (io: Io, json: boolean, error: unknown): number => {
  const deep = tooDeepToWrite(error);
  if (deep) return exitCodeFor(io, json, deep);
  if (isLedgerError(error)) {
    failingWith(EXIT_CODES[error.type]);
    if (json) io.out(toJson({ error: error.toJSON() }, 2));
    // One line, whole: a newline from the input it names is escaped, not where the message ends (it
    // printed "subscriber not found: a" for the name "a\nb": outside test, session 25).
    io.err(`session-ledger: ${terminalSafe(error.message, 'field')}`);
    return EXIT_CODES[error.type];
  }
  const message = error instanceof Error ? error.message : String(error);
  failingWith(EXIT_INTERNAL);
  io.err(`session-ledger: internal error: ${terminalSafe(message.split('\n')[0]!, 'field')}`);
  if (process.env.SESSION_LEDGER_DEBUG) io.err(String((error as Error)?.stack));
  return EXIT_INTERNAL;
};

/**
 * A reader that went away (`session-ledger events all | head -1`) ends the command quietly with exit 0:
 * EPIPE on stdout (or stderr) is the reader's choice, not a failure, so no stack trace and no 141.
 * A command that had decided to fail (failingWith) exits with that status.
 */
let installed = false;
export const exitQuietlyOnClosedPipe = (): void => {
  if (installed) return;
  installed = true;
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(decided);
    throw error;
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
};

import { isLedgerError, toJson } from '@session-ledger/core';
import { EXIT_CODES } from './exitCodes.js';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
}

export const processIo = (): Io => ({
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTty: Boolean(process.stdout.isTTY && process.stderr.isTTY),
});

/** One JSON document on stdout with --json; otherwise the text rendering. */
export const emit = (io: Io, json: boolean, value: unknown, text: () => string): void => {
  io.out(json ? toJson(value, 2) : text());
};

/** Every failure ends as one line on stderr (and the error object with --json) and a documented exit code. */
export const exitCodeFor = (io: Io, json: boolean, error: unknown): number => {
  if (isLedgerError(error)) {
    if (json) io.out(toJson({ error: error.toJSON() }, 2));
    io.err(`session-ledger: ${error.message.split('\n')[0]}`);
    return EXIT_CODES[error.type];
  }
  const message = error instanceof Error ? error.message : String(error);
  io.err(`session-ledger: internal error: ${message.split('\n')[0]}`);
  if (process.env.SESSION_LEDGER_DEBUG) io.err(String((error as Error)?.stack));
  return 70;
};

import { ledgerError } from '@session-ledger/core';

declare module '@session-ledger/core' {
  interface ErrorDetails {
    /** A read model's projection threw: reads of it fail until `projections rebuild NAME` repairs it. */
    read_model_faulted: { name: string; error: string };
    /** A search ran past its deadline and was stopped (searchThread.ts): a phrase repeated in a long run of one character. */
    search_timeout: { deadlineMs: number };
  }
}

export const readModelFaulted = (name: string, error: string) =>
  ledgerError('read_model_faulted', `Read model ${name} is faulted (${error}); run: session-ledger projections rebuild ${name}`, { name, error });

/** A rebuild that ended faulted: the projection cannot fold some stored event, so rebuilding again would not help. */
export const rebuildFaulted = (name: string, error: string) =>
  ledgerError('read_model_faulted', `Read model ${name} is still faulted after its rebuild (${error}): its projection cannot fold a stored event; \`audit verify\` names damaged events`, { name, error });

export const searchTimeout = (phrase: string, deadlineMs: number) =>
  ledgerError(
    'search_timeout',
    `The search for ${JSON.stringify(phrase.length > 80 ? `${phrase.slice(0, 80)}…` : phrase)} ran past its deadline (${deadlineMs / 1000} s) and was stopped: a phrase repeated many times in a row in some message matches at every offset; search a longer or other phrase`,
    { deadlineMs },
  );

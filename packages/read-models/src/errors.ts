import { ledgerError } from '@session-ledger/core';

declare module '@session-ledger/core' {
  interface ErrorDetails {
    /** A read model's projection threw: reads of it fail until `projections rebuild NAME` repairs it. */
    read_model_faulted: { name: string; error: string };
  }
}

export const readModelFaulted = (name: string, error: string) =>
  ledgerError('read_model_faulted', `Read model ${name} is faulted (${error}); run: session-ledger projections rebuild ${name}`, { name, error });

/** A rebuild that ended faulted: the projection cannot fold some stored event, so rebuilding again would not help. */
export const rebuildFaulted = (name: string, error: string) =>
  ledgerError('read_model_faulted', `Read model ${name} is still faulted after its rebuild (${error}): its projection cannot fold a stored event; \`audit verify\` names damaged events`, { name, error });

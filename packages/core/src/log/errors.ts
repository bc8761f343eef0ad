import { ledgerError } from '../errors.js';

declare module '../errors.js' {
  /** The log commitment's error codes (see errors.ts). */
  interface ErrorDetails {
    /** The store keeps no log-level commitment (EventStoreDB): digests, proofs and log verify need one. */
    log_unsupported: { store: string };
  }
}

export const logUnsupported = (store: string) =>
  ledgerError('log_unsupported', `${store} keeps no log commitment: digests, proofs and the log verify need the SQLite store`, { store });

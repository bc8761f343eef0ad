import { ledgerError } from '../errors.js';

declare module '../errors.js' {
  /** The log commitment's error codes (see errors.ts). */
  interface ErrorDetails {
    /** The store keeps no log-level commitment (EventStoreDB): digests, proofs and log verify need one. */
    log_unsupported: { store: string };
    /** The stored log lacks a leaf a root or a proof needs (written behind the store's back): `leaf`, its index. */
    log_damaged: { leaf: number };
  }
}

export const logUnsupported = (store: string) =>
  ledgerError('log_unsupported', `${store} keeps no log commitment: digests, proofs and the log verify need the SQLite store`, { store });

export const logDamaged = (leaf: number, why = 'is gone or holds no hash, so it has no root or proof over it') =>
  ledgerError('log_damaged', `The log is damaged: its leaf ${leaf} ${why}; audit verify names every break`, { leaf });

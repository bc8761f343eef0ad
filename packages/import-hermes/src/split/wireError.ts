import { isLedgerError, ledgerError, type LedgerError } from '@session-ledger/core';
import type { WireError } from './protocol.js';

/** An error as it crosses to the other thread: a ledger error keeps its type and details. */
export const toWire = (error: unknown): WireError => {
  if (isLedgerError(error)) return { type: error.type, message: error.message, details: error.details };
  const e = error instanceof Error ? error : new Error(String(error));
  return { message: e.message, stack: e.stack };
};

/** The error again on this side: the same typed ledger error, or an Error carrying the worker's stack. */
export const fromWire = (wire: WireError): LedgerError | Error => {
  if (wire.type !== undefined) return ledgerError(wire.type as never, wire.message, wire.details as never);
  const error = new Error(`import append worker: ${wire.message}`);
  if (wire.stack !== undefined) error.stack = `${error.message}\n--- in the worker ---\n${wire.stack}`;
  return error;
};

import { isLedgerError, ledgerError, type LedgerError } from '@session-ledger/core';

declare module '@session-ledger/core' {
  /** The retention module's error codes (see core's errors.ts). */
  interface ErrorDetails {
    verification_failed: { what: string };
    drift: { stream: string; exported: string; current: string };
    /** A deletion of several streams stopped part way (EventStoreDB cannot tombstone several in one call): what went, what stayed. */
    partial_deletion: { deleted: string[]; kept: string[]; stream: string; exported: string; current: string };
  }
}


export const cannotDeleteActive = (sessionId: string, turn: { turnId: string; owner: string; sessionId: string; leaseExpiresAt: string }, childRoot: string | null) =>
  ledgerError(
    'session_active',
    `Cannot delete active session ${sessionId}: turn ${turn.turnId} (${turn.owner}) holds segment ${turn.sessionId}` +
      `${childRoot === null ? '' : ` of delegated child ${childRoot}`} until ${turn.leaseExpiresAt}`,
    { sessionId, turnId: turn.turnId, segment: turn.sessionId },
  );

/** Another run (a second prune on the file) finished the same deletion and recorded its outcome first: the conversation is counted there. */
export const deletedByAnotherRun = (sessionId: string) =>
  ledgerError('session_deleted', `Session ${sessionId} was deleted by another run at the same time, which recorded the outcome`, { sessionId });

export const driftError = (stream: string, exported: string, current: string, what: string) =>
  ledgerError('drift', `${stream} changed after it was read (read at revision ${exported}, now ${current}): ${what}`, { stream, exported, current });

export const filteredCannotDelete = () =>
  ledgerError('invalid_input', 'A filtered (--only) export never authorises a deletion: export without --only to delete', { field: 'only' });

/**
 * A display export leaves out rewound messages (retried or edited away in Hermes, `rewindMessages`),
 * which the tombstones would erase with the rest: until session 35 they were, exit 0, in no file
 * (outside test, helper-97 F1).
 */
export const displayLeavesOut = (rewound: number) =>
  ledgerError(
    'invalid_input',
    `The display view leaves out ${rewound} rewound message(s) (retried or edited away) that the deletion would erase unexported: export with --view raw (or --format jsonl) to delete`,
    { field: 'view' },
  );

/** The same error with a sentence added (what was kept, where the export is). */
export const withNote = (error: unknown, note: string): unknown =>
  isLedgerError(error) ? ledgerError(error.type, `${error.message}; ${note}`, (error as LedgerError).details as never) : error;

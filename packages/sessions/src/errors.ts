import { isLedgerError, ledgerError, notFound } from '@session-ledger/core';

declare module '@session-ledger/core' {
  /** The sessions module's error codes (see core's errors.ts). */
  interface ErrorDetails {
    session_deleted: { sessionId: string };
    session_active: { sessionId: string; turnId?: string; segment?: string };
    session_ended: { sessionId: string };
    session_sealed: { sessionId: string; tipId: string };
    turn_not_found: { sessionId: string; turnId: string };
  }
}


export const sessionNotFound = (sessionId: string) => notFound('session', sessionId);

export const sessionDeleted = (sessionId: string) =>
  ledgerError('session_deleted', `Session ${sessionId} is deleted; it can never be read or written again`, { sessionId });

export const sessionSealed = (sessionId: string, tipId: string, pending = false, takenChildId?: string) =>
  ledgerError(
    'session_sealed',
    takenChildId !== undefined
      ? `Session ${tipId === sessionId ? sessionId : `${sessionId} (tip ${tipId})`} was compressed into ${takenChildId}, an id another session holds or held: compress ${tipId} again into a new childId`
      : pending
        ? `Session ${sessionId} was compressed into ${tipId}, which is not started yet: run compress again to complete it`
        : `Session ${sessionId} was compressed; write to its tip ${tipId}`,
    { sessionId, tipId },
  );

export const sessionEnded = (sessionId: string) => ledgerError('session_ended', `Session ${sessionId} has ended`, { sessionId });

export const sessionActive = (sessionId: string, turnId: string, segment: string) =>
  ledgerError('session_active', `Session ${sessionId} is held by live turn ${turnId}`, { sessionId, turnId, segment });

export const turnNotFound = (sessionId: string, turnId: string, why = 'is not the current turn') =>
  ledgerError('turn_not_found', `Turn ${turnId} of session ${sessionId} ${why}`, { sessionId, turnId });

/** The store names streams; the writer names sessions: a tombstoned stream is a deleted session. */
export const asSessionError = (error: unknown, sessionId: string): unknown =>
  isLedgerError(error, 'stream_deleted') ? sessionDeleted(sessionId) : isLedgerError(error, 'stream_not_found') ? sessionNotFound(sessionId) : error;

import { invalidInput, isLedgerError, type Handled, type Ledger } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import type { SegmentWriteState } from '@session-ledger/projections';
import type { WriteResult } from '../context.js';
import type { SegmentCommand } from '../decide/commands.js';
import { segmentDecider, type SegmentReply } from '../decide/segmentDecider.js';
import { sessionDeleted, sessionSealed } from '../errors.js';
import { findTip } from '../read/findTip.js';
import { finishCompression } from './finishCompression.js';

export type SegmentHandled = Handled<SegmentWriteState, SegmentReply>;

/** Puts a refusal in the session's words: a tombstoned segment is deleted; a sealed one names the conversation's tip. */
const explain = async (ledger: Ledger, sessionId: string, error: unknown): Promise<unknown> => {
  if (isLedgerError(error, 'stream_deleted')) return sessionDeleted(sessionId);
  if (isLedgerError(error, 'session_sealed')) {
    let tip = await findTip(ledger.store, sessionId);
    if (tip.parentId !== undefined) {
      // a compression between (or killed between) its two writes: finish it, so the tip named takes writes now
      const finished = await finishCompression(ledger, tip.parentId).then(
        () => null,
        (failure: unknown) => failure,
      );
      if (isLedgerError(finished, 'session_deleted')) return finished;
      tip = await findTip(ledger.store, sessionId);
    }
    return sessionSealed(sessionId, tip.tipId, tip.pending, tip.takenChildId);
  }
  return error;
};

/**
 * Every write to a segment goes here: the ledger's one command handler with the segment decider
 * (packages/sessions/src/decide), conditional on `expectedRevision` when the caller knows it.
 */
export const runSegment = async (ledger: Ledger, command: SegmentCommand, expectedRevision?: bigint): Promise<SegmentHandled> => {
  // A JavaScript caller can pass what the types refuse: 'any' or 3 was decided as a revision no
  // segment has, and refused as wrong_expected_version ("expected any, actual 0") on every retry.
  if (expectedRevision !== undefined && (typeof expectedRevision !== 'bigint' || expectedRevision < 0n)) throw badRevision(expectedRevision);
  try {
    return await ledger.handle(segmentDecider, sessionStream(command.sessionId), command, expectedRevision === undefined ? NO_REVISION : { expectedRevision });
  } catch (error) {
    throw await explain(ledger, command.sessionId, error);
  }
};

const NO_REVISION = {};

const badRevision = (given: unknown) =>
  invalidInput(
    `expectedRevision must be the segment's revision as a bigint >= 0 (e.g. 3n), or left out to write at whatever revision it is: not ${typeof given === 'string' ? JSON.stringify(given) : String(given)}`,
    'expectedRevision',
  );

/** The WriteResult every writer returns. */
export const writeResultOf = (sessionId: string, handled: SegmentHandled): WriteResult => ({
  sessionId,
  revision: handled.revision,
  position: handled.position ?? -1n,
  written: handled.written,
});

/** A segment's write state, through the handler's cache (stream errors in the session's words). */
export const loadSegment = async (ledger: Ledger, sessionId: string) => {
  try {
    return await ledger.load(segmentDecider, sessionStream(sessionId));
  } catch (error) {
    throw await explain(ledger, sessionId, error);
  }
};

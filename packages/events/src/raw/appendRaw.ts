import type { AppendResult, Ledger } from '@session-ledger/core';
import { checkRawAppend, type RawAppend } from './reserved.js';

/**
 * The raw append of both surfaces (`events append`, `POST /streams/:stream`): `checkRawAppend`, then
 * one event through the hash-chained ledger. The id is stored in lower case: a UUID names one event
 * however it is spelled (EventStoreDB stores it as 16 bytes and answers in lower case), so a retry
 * in the other case is the same event, never a second one (outside test, session 23: both stored).
 */
export const appendRaw = async (ledger: Ledger, append: RawAppend): Promise<AppendResult> => {
  checkRawAppend(append);
  const { stream, type, data, metadata } = append;
  const id = append.id.toLowerCase();
  return ledger.append(stream, [{ id, type, data: data as never, metadata }], { expectedRevision: append.expectedRevision });
};

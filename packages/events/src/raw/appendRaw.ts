import { invalidInput, readStreamIfAny, type AppendResult, type Ledger } from '@session-ledger/core';
import { checkRawAppend, type RawAppend } from './reserved.js';

/**
 * The raw append of both surfaces (`events append`, `POST /streams/:stream`): `checkRawAppend`, then
 * one event through the hash-chained ledger. A segment a raw event may not create is looked up
 * first, and the append keeps `any` (so a retry with the same id is still recognised as one).
 */
export const appendRaw = async (ledger: Ledger, append: RawAppend): Promise<AppendResult> => {
  const rule = checkRawAppend(append);
  if (rule.mustExist) {
    if ((await readStreamIfAny(ledger.store, append.stream, { maxCount: 1 })) === null) {
      throw invalidInput(`Refused raw append to ${append.stream}: no such segment, and a segment begins only with its session.started`, 'stream');
    }
  }
  const { stream, id, type, data, metadata } = append;
  return ledger.append(stream, [{ id, type, data: data as never, metadata }], { expectedRevision: rule.expectedRevision });
};

import type { AppendResult, Ledger } from '@session-ledger/core';
import { checkRawAppend, type RawAppend } from './reserved.js';

/**
 * The raw append of both surfaces (`events append`, `POST /streams/:stream`): `checkRawAppend`, then
 * one event through the hash-chained ledger.
 */
export const appendRaw = async (ledger: Ledger, append: RawAppend): Promise<AppendResult> => {
  checkRawAppend(append);
  const { stream, id, type, data, metadata } = append;
  return ledger.append(stream, [{ id, type, data: data as never, metadata }], { expectedRevision: append.expectedRevision });
};

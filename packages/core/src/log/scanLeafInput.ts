import { isPlainString } from './plainString.js';

/**
 * leafInput (leaf.ts) as a range scan writes it per event: the revision a safe integer as a number
 * (its decimal digits are the BigInt's: no BigInt per event) and the hash one the scan computed (64
 * lowercase hex digits, which JSON.stringify writes between quotes as they are). The same bytes as
 * leafInput for those inputs; `test/audit/scanLeafInput.unit.test.ts` compares the two.
 */
export const scanLeafInput = (index: number, position: number | null, stream: string, revision: number, hash: string, created: string): string => {
  const at = position === null ? '' : `"position":"${position}",`;
  // created and stream as JSON.stringify writes them: between quotes as they are when nothing in them is escaped (isPlainString).
  return isPlainString(created) && isPlainString(stream)
    ? `{"created":"${created}","hash":"${hash}","index":"${index}",${at}"revision":"${revision}","stream":"${stream}"}`
    : `{"created":${JSON.stringify(created)},"hash":"${hash}","index":"${index}",${at}"revision":"${revision}","stream":${JSON.stringify(stream)}}`;
};

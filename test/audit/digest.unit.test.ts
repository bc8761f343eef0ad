import { describe, expect, it } from 'vitest';
import { isLedgerError, parseDigest } from '@session-ledger/core';

const ROOT = 'ab'.repeat(32);
const refusal = (text: string): string => {
  try {
    parseDigest(text);
  } catch (error) {
    if (isLedgerError(error) && error.type === 'invalid_input') return error.message;
    throw error;
  }
  throw new Error(`accepted: ${text}`);
};

describe('parseDigest: a digest an auditor kept is read as it was signed, or refused', () => {
  it('takes the digest audit digest writes, and a time with an offset', () => {
    expect(parseDigest(JSON.stringify({ size: 5, root: ROOT, at: '2026-12-04T03:00:00.000Z' }))).toEqual({ size: 5, root: ROOT, at: '2026-12-04T03:00:00.000Z' });
    expect(parseDigest(JSON.stringify({ size: 0, root: ROOT, at: '2024-02-29T23:59:59+05:30' })).at).toBe('2024-02-29T23:59:59+05:30');
  });

  it.each(['yesterday', '', '2026-12-04', '2026-02-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-12-04T24:00:00Z', '2026-12-04T03:00:00', '2026-12-04T03:00:00Z\n'])(
    'refuses an at that is no time: %j (it was verified, proving nothing of when)',
    (at) => expect(refusal(JSON.stringify({ size: 5, root: ROOT, at }))).toMatch(/no at \(an RFC 3339 time/),
  );

  it('refuses an at that is not a string, and a digest that repeats a key (which size was signed?)', () => {
    expect(refusal(JSON.stringify({ size: 5, root: ROOT, at: 1 }))).toMatch(/no at/);
    expect(refusal(`{"size":1,"root":"${ROOT}","at":"2026-12-04T03:00:00.000Z","size":5}`)).toMatch(/repeats a key/);
  });

  // Outside test, session 23: `audit verify --digest deep.json` said the ledger held a value nested too deep (exit 4, LEDGER_DAMAGED).
  it('refuses JSON nested 10,000 deep as the digest\'s fault, an object or an array', () => {
    expect(refusal('['.repeat(10_000) + ']'.repeat(10_000))).toMatch(/digest nests JSON deeper than 100 levels/);
    expect(refusal(`{"size":1,"root":"${ROOT}","at":"2026-12-04T03:00:00.000Z","x":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`)).toMatch(/deeper than 100/);
  });
});

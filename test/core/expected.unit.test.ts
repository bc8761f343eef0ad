import { describe, expect, it } from 'vitest';
import { formatExpected, parseExpected, readStreamWindow, withRetry, storeUnavailable, invalidInput } from '@session-ledger/core';

describe('expected revisions as text', () => {
  it('parses the three names and revision numbers, and nothing else', () => {
    expect(parseExpected('any')).toBe('any');
    expect(parseExpected('no_stream')).toBe('no_stream');
    expect(parseExpected('stream_exists')).toBe('stream_exists');
    expect(parseExpected('42')).toBe(42n);
    expect(parseExpected('18446744073709551615')).toBe(18446744073709551615n);
    for (const bad of ['', '-1', '1.5', 'ANY', ' 1', 'exists']) expect(parseExpected(bad)).toBeNull();
  });

  it('formats back to the same text', () => {
    for (const text of ['any', 'no_stream', 'stream_exists', '0', '42']) expect(formatExpected(parseExpected(text)!)).toBe(text);
  });
});

describe('read windows', () => {
  it('refuses a max count that is negative or not whole', () => {
    for (const maxCount of [-1, 1.5, Number.NaN]) {
      expect(() => readStreamWindow([], { maxCount })).toThrow(expect.objectContaining({ type: 'invalid_input' }));
    }
  });
});

describe('retry of transient store errors', () => {
  const policy = { attempts: 3, baseDelayMs: 1 };

  it('retries store_unavailable until it succeeds', async () => {
    let calls = 0;
    const result = await withRetry(async () => {
      calls += 1;
      if (calls < 3) throw storeUnavailable('busy', 'SQLITE_BUSY');
      return 'done';
    }, policy);
    expect([result, calls]).toEqual(['done', 3]);
  });

  it('gives up after the last attempt with the store error', async () => {
    let calls = 0;
    const failing = withRetry(async () => {
      calls += 1;
      throw storeUnavailable('busy', 'SQLITE_BUSY');
    }, policy);
    await expect(failing).rejects.toMatchObject({ type: 'store_unavailable' });
    expect(calls).toBe(3);
  });

  it('never retries other errors', async () => {
    let calls = 0;
    const failing = withRetry(async () => {
      calls += 1;
      throw invalidInput('bad');
    }, policy);
    await expect(failing).rejects.toMatchObject({ type: 'invalid_input' });
    expect(calls).toBe(1);
  });
});

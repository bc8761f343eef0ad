import { describe, expect, it } from 'vitest';
import { isLedgerError } from '@session-ledger/core';
import { appendThreadFor, parseThreads, SPLIT_MIN_MESSAGES } from '../../packages/cli/src/commands/importThreads.js';

describe('import hermes: when the CLI appends on a second thread', () => {
  it('by default, for an SQLite ledger and a source of SPLIT_MIN_MESSAGES or more, through its own openStore and URL', () => {
    const opener = appendThreadFor('sqlite:/tmp/ledger.sqlite?durability=full', 'auto', SPLIT_MIN_MESSAGES, 2);
    expect(opener).toMatchObject({ name: 'openStore', args: ['sqlite:/tmp/ledger.sqlite?durability=full', { write: true }] });
    expect(opener!.module).toMatch(/\/packages\/cli\/src\/openStore\.js$/);
    expect(appendThreadFor('SQLITE:/tmp/ledger.sqlite', 'auto', SPLIT_MIN_MESSAGES + 1, 8)).toBeDefined();
  });

  it('not for a smaller source (the worker would cost more than it saves) nor on one core, unless --threads 2 asks', () => {
    expect(appendThreadFor('sqlite:/tmp/ledger.sqlite', 'auto', SPLIT_MIN_MESSAGES - 1, 2)).toBeUndefined();
    expect(appendThreadFor('sqlite:/tmp/ledger.sqlite', 'auto', 10 * SPLIT_MIN_MESSAGES, 1)).toBeUndefined();
    expect(appendThreadFor('sqlite:/tmp/ledger.sqlite', 2, 1, 2)).toBeDefined();
    expect(appendThreadFor('sqlite:/tmp/ledger.sqlite', 2, 10 * SPLIT_MIN_MESSAGES, 1)).toBeDefined();
  });

  it('never with --threads 1, nor for a store a second thread cannot open as its own (memory, EventStoreDB)', () => {
    expect(appendThreadFor('sqlite:/tmp/ledger.sqlite', 1, 10 * SPLIT_MIN_MESSAGES)).toBeUndefined();
    for (const url of ['memory:', 'esdb://localhost:2113?tls=false', 'kurrentdb://localhost:2113']) {
      expect(appendThreadFor(url, 2, 10 * SPLIT_MIN_MESSAGES)).toBeUndefined();
      expect(appendThreadFor(url, 'auto', 10 * SPLIT_MIN_MESSAGES)).toBeUndefined();
    }
  });

  it('--threads takes 1 or 2; absent is automatic; anything else is invalid input', () => {
    expect(parseThreads(undefined)).toBe('auto');
    expect(parseThreads('1')).toBe(1);
    expect(parseThreads('2')).toBe(2);
    for (const bad of ['0', '3', '', 'auto', '1.0']) {
      let error: unknown;
      try {
        parseThreads(bad);
      } catch (e) {
        error = e;
      }
      expect(isLedgerError(error, 'invalid_input'), bad).toBe(true);
    }
  });
});

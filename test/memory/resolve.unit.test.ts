import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import type { LedgerError } from '@session-ledger/core';
import {
  DEFAULT_BUDGETS,
  parseBatch,
  resolveBatch,
  type MemoryEntry,
  type MemoryOperation,
  type Resolution,
} from '@session-ledger/memory';
import { foldMemoryEntries } from '@session-ledger/projections';

const ctx = { stream: 'memory-default', baseRevision: 4n, batchId: 'b1', budgets: DEFAULT_BUDGETS };
const entry = (id: string, content: string, target: 'memory' | 'user' = 'memory'): MemoryEntry => ({ id, target, content });

const ok = (entries: MemoryEntry[], ops: MemoryOperation[]): Resolution => {
  const result = resolveBatch(entries, ops, ctx);
  if (E.isLeft(result)) throw result.left;
  return result.right;
};
const fail = (entries: MemoryEntry[], ops: MemoryOperation[]): LedgerError => {
  const result = resolveBatch(entries, ops, ctx);
  if (E.isRight(result)) throw new Error('expected the batch to be rejected');
  return result.left;
};

describe('batch resolution', () => {
  it('gives each operation the previous content the operations before it left (blue, green notebook)', () => {
    const { receipts, entries } = ok(
      [],
      [
        { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
        { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
        { op: 'remove', target: 'memory', old: 'green notebook' },
      ],
    );
    expect(receipts.map((r) => [r.op, r.previousContent, r.content, r.selector])).toEqual([
      ['add', null, 'Uses the blue notebook', null],
      ['replace', 'Uses the blue notebook', 'Uses the green notebook', 'blue notebook'],
      ['remove', 'Uses the green notebook', null, 'green notebook'],
    ]);
    expect(new Set(receipts.map((r) => r.entryId)).size).toBe(1);
    expect(entries).toEqual([]);
  });

  it('prefers an exact match over substring matches', () => {
    const state = [entry('a', 'tea'), entry('b', 'Prefers tea in the morning')];
    const { receipts } = ok(state, [{ op: 'remove', target: 'memory', old: 'tea' }]);
    expect(receipts[0]).toMatchObject({ entryId: 'a', previousContent: 'tea' });
  });

  it('rejects several different matches as ambiguous, listing the candidates', () => {
    const state = [entry('a', 'Prefers tea'), entry('b', 'Prefers tea with milk')];
    const error = fail(state, [{ op: 'replace', target: 'memory', old: 'Prefers t', content: 'Prefers coffee' }]);
    expect(error.type).toBe('ambiguous');
    expect(error.details).toEqual({ selector: 'Prefers t', candidates: ['Prefers tea', 'Prefers tea with milk'] });
  });

  it('selects the first of identical legacy duplicates', () => {
    const state = [entry('a', 'same note'), entry('b', 'same note')];
    expect(ok(state, [{ op: 'remove', target: 'memory', old: 'same' }]).receipts[0]!.entryId).toBe('a');
  });

  it('only matches entries of the operation target', () => {
    const state = [entry('u', 'Name is Ada', 'user')];
    expect(fail(state, [{ op: 'remove', target: 'memory', old: 'Ada' }]).type).toBe('not_found');
  });

  it('rejects an exact duplicate add, also inside one batch', () => {
    expect(fail([entry('a', 'Likes jazz')], [{ op: 'add', target: 'memory', content: 'Likes jazz' }]).type).toBe('duplicate');
    const error = fail([], [
      { op: 'add', target: 'user', content: 'x' },
      { op: 'add', target: 'user', content: ' x ' },
    ]);
    expect(error.type).toBe('duplicate');
    expect(error.message).toMatch(/^operation 2 \(add\)/);
  });

  it('strips content and selectors as Hermes does (Python str.strip), so a mirrored MEMORY.md reads back as stored (outside test, session 25)', () => {
    // JavaScript's trim kept U+001C..U+001F and U+0085: Hermes read such a mirror with other entries and refused to edit it as drift
    const added = ok([], [
      { op: 'add', target: 'memory', content: '\u0085second' },
      { op: 'add', target: 'memory', content: 'third\u001c' },
      { op: 'add', target: 'memory', content: '\ufeffBOM stays\u200b' },
    ]).entries.map((e) => e.content);
    expect(added).toEqual(['second', 'third', '\ufeffBOM stays\u200b']);
    expect(fail([entry('a', 'third')], [{ op: 'add', target: 'memory', content: 'third\u001f' }]).type).toBe('duplicate');
    expect(fail([], [{ op: 'add', target: 'memory', content: '\u001c\u001d\u001e\u001f\u0085' }]).type).toBe('invalid_input');
    expect(ok([entry('a', 'third')], [{ op: 'remove', target: 'memory', old: '\u001cthird\u0085' }]).entries).toEqual([]);
  });

  // Outside test, session 26: Hermes reads MEMORY.md in Python's text mode (universal newlines: \r and \r\n are \n),
  // so "a\n§\rb" was one ledger entry and two Hermes entries, and Hermes removed half of it on its own.
  it('takes carriage returns as Hermes reads them (newlines), so a § line behind one is refused and \r\n is one entry', () => {
    expect(fail([], [{ op: 'add', target: 'memory', content: 'keep\n§\rsecret' }])).toMatchObject({ type: 'invalid_input', message: expect.stringContaining('line with only §') });
    expect(fail([], [{ op: 'add', target: 'memory', content: 'keep\r§\rsecret' }]).type).toBe('invalid_input');
    expect(ok([], [{ op: 'add', target: 'user', content: 'line1\r\nline2\rline3' }]).entries.map((e) => e.content)).toEqual(['line1\nline2\nline3']);
    expect(fail([entry('a', 'line1\nline2')], [{ op: 'add', target: 'memory', content: 'line1\r\nline2' }]).type).toBe('duplicate');
    expect(ok([entry('a', 'line1\nline2')], [{ op: 'remove', target: 'memory', old: '1\r\nline' }]).entries).toEqual([]);
  });

  it('refuses a batch of more than 1000 operations before resolving any (outside test, session 25)', () => {
    const ops = (n: number): MemoryOperation[] => Array.from({ length: n }, (_, i) => ({ op: 'add', target: 'memory', content: `e${i}` }));
    expect(fail([], ops(1001))).toMatchObject({ type: 'invalid_input', message: 'Malformed batch: the batch holds more than 1000 operations: split it' });
    // 1000 are resolved (and here over the budget)
    expect(fail([], ops(1000)).type).toBe('over_budget');
  });

  it('allows the same content in the other target', () => {
    expect(ok([entry('a', 'Likes jazz')], [{ op: 'add', target: 'user', content: 'Likes jazz' }]).receipts).toHaveLength(1);
  });

  it('checks budgets on the final state only', () => {
    const big = 'x'.repeat(2000);
    const state = [entry('a', big)];
    // Intermediate state is over 2200, the final one is not.
    const { entries } = ok(state, [
      { op: 'add', target: 'memory', content: 'y'.repeat(500) },
      { op: 'remove', target: 'memory', old: big },
    ]);
    expect(entries.map((e) => e.content.length)).toEqual([500]);
    const error = fail(state, [{ op: 'add', target: 'memory', content: 'z'.repeat(198) }]);
    expect(error).toMatchObject({ type: 'over_budget', details: { target: 'memory', limit: 2200, used: 2201 } });
  });

  it('counts the § delimiters and code points like Hermes', () => {
    const user = '😀'.repeat(1375); // 1375 code points, 2750 UTF-16 units: exactly at the limit
    expect(ok([], [{ op: 'add', target: 'user', content: user }]).receipts).toHaveLength(1);
    const error = fail([entry('a', user, 'user')], [{ op: 'add', target: 'user', content: 'a' }]);
    expect(error.details).toEqual({ target: 'user', limit: 1375, used: 1375 + 3 + 1 });
  });

  it('rejects empty content, empty selectors and delimiter lines', () => {
    expect(fail([], [{ op: 'add', target: 'memory', content: '   ' }]).type).toBe('invalid_input');
    expect(fail([entry('a', 'n')], [{ op: 'remove', target: 'memory', old: ' ' }]).type).toBe('invalid_input');
    expect(fail([], [{ op: 'add', target: 'memory', content: 'a\n§\nb' }]).type).toBe('invalid_input');
  });

  it('gives new entries ids from the base revision, batch and operation index, matching the reducer', () => {
    const ops: MemoryOperation[] = [
      { op: 'add', target: 'memory', content: 'one' },
      { op: 'add', target: 'user', content: 'two' },
    ];
    const first = ok([], ops);
    expect(ok([], ops).receipts.map((r) => r.entryId)).toEqual(first.receipts.map((r) => r.entryId));
    expect(resolveBatch([], ops, { ...ctx, baseRevision: 5n })).not.toEqual(E.right(first));
    expect(resolveBatch([], ops, { ...ctx, batchId: 'b2' })).not.toEqual(E.right(first));
    expect(foldMemoryEntries(first.events).entries).toEqual(first.entries);
  });

  it('a replace or remove by entry id takes that entry of that target or none, and records no selector', () => {
    const entries = [entry('a', 'Uses the blue notebook'), entry('b', 'Uses the red notebook'), entry('c', 'Name is Ada', 'user')];
    const replaced = ok(entries, [{ op: 'replace', target: 'memory', entryId: 'b', content: 'Uses the red pad' }]);
    expect(replaced.events).toEqual([{ type: 'memory.entry_replaced', data: { entryId: 'b', target: 'memory', previousContent: 'Uses the red notebook', content: 'Uses the red pad' } }]);
    expect(replaced.receipts[0]!.selector).toBeNull();
    expect(fail(entries, [{ op: 'remove', target: 'memory', entryId: 'c' }]).type).toBe('not_found');
    expect(fail(entries, [{ op: 'remove', target: 'memory', entryId: 'a' }, { op: 'remove', target: 'memory', entryId: 'a' }]).type).toBe('not_found');
  });

  it('parseBatch takes old or entryId for a replace or remove, exactly one', () => {
    expect(parseBatch([{ op: 'remove', target: 'memory', entryId: 'a' }])).toEqual([{ op: 'remove', target: 'memory', entryId: 'a' }]);
    expect(() => parseBatch([{ op: 'remove', target: 'memory', entryId: 'a', old: 'x' }])).toThrow(/operation 1 field "old": give old \(a selector\) or entryId, not both/);
    expect(() => parseBatch([{ op: 'add', target: 'memory', content: 'x' }, { op: 'replace', target: 'memory', content: 'y' }])).toThrow(/operation 2 field "old": old \(a selector\) or entryId is required/);
    expect(() => parseBatch([{ op: 'remove', target: 'memory', entryId: 'e'.repeat(201) }])).toThrow(/operation 1 field "entryId"/);
  });

  it('answers a selector that matches nothing with a preview of it, not the whole text (helper-94 F16)', () => {
    const error = fail([entry('a', 'n')], [{ op: 'remove', target: 'memory', old: 'q'.repeat(5_000_000) }]);
    expect([error.type, error.message.length < 300, JSON.stringify(error.details).length < 300]).toEqual(['not_found', true, true]);
  });
});

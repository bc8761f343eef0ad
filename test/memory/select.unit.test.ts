import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { selectEntry, type MemoryEntry } from '@session-ledger/memory';

const entry = (id: string, target: MemoryEntry['target'], content: string): MemoryEntry => ({ id, target, content });

const refusal = (result: E.Either<unknown, MemoryEntry>) => {
  if (E.isRight(result)) throw new Error(`expected a refusal, selected ${JSON.stringify(result.right)}`);
  return result.left;
};

describe('selectEntry', () => {
  const entries = [
    entry('u1', 'user', 'Prefers tea'),
    entry('m1', 'memory', 'Prefers tea'),
    entry('m2', 'memory', 'Prefers tea with milk'),
    entry('m3', 'memory', 'Uses the blue notebook'),
  ];

  it('an exact match wins over substring matches, and only inside the target', () => {
    expect(selectEntry(entries, 'memory', 'Prefers tea')).toEqual(E.right(entries[1]));
    expect(selectEntry(entries, 'user', 'Prefers tea')).toEqual(E.right(entries[0]));
  });

  it('a unique substring selects its entry; one in another target does not count', () => {
    expect(selectEntry(entries, 'memory', 'notebook')).toEqual(E.right(entries[3]));
    expect(selectEntry(entries, 'user', 'tea')).toEqual(E.right(entries[0]));
    expect(refusal(selectEntry(entries, 'user', 'notebook'))).toMatchObject({
      type: 'not_found',
      message: 'memory entry in user not found: notebook',
      details: { what: 'memory entry in user', id: 'notebook' },
    });
  });

  it('several matches with the same content (legacy duplicates) select the first', () => {
    const duplicates = [entry('a', 'memory', 'Same text'), entry('b', 'memory', 'Same text')];
    expect(selectEntry(duplicates, 'memory', 'Same')).toEqual(E.right(duplicates[0]));
  });

  it('several different matches are ambiguous: the message lists each candidate once, quoted, long ones cut at 80 characters', () => {
    const long = `Prefers ${'x'.repeat(80)}`;
    const exactly80 = `Prefers ${'y'.repeat(72)}`;
    const candidates = [entry('a', 'memory', 'Prefers tea'), entry('b', 'memory', long), entry('c', 'memory', exactly80), entry('d', 'memory', 'Prefers tea')];

    const error = refusal(selectEntry(candidates, 'memory', 'Prefers'));

    expect(exactly80).toHaveLength(80);
    expect(error).toMatchObject({
      type: 'ambiguous',
      message: `Selector "Prefers" matches 3 different memory entries: "Prefers tea", ${JSON.stringify(`${long.slice(0, 80)}…`)}, ${JSON.stringify(exactly80)}`,
      details: { selector: 'Prefers', candidates: ['Prefers tea', long, exactly80] },
    });
  });
});

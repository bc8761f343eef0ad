import { describe, expect, it } from 'vitest';
import { lineageUnits } from '@session-ledger/import-hermes';

const s = (id: string, startedAt: number, parentSessionId: string | null = null) => ({ id, startedAt, parentSessionId });
const ids = (units: Array<Array<{ id: string }>>) => units.map((unit) => unit.map((x) => x.id));

describe('lineageUnits', () => {
  it('joins every session reachable by parent_session_id, of any kind, into one unit, parents first', () => {
    const units = lineageUnits([
      s('child-of-b', 5, 'b'),
      s('a', 1),
      s('b', 2),
      s('a-compressed', 3, 'a'),
      s('a-branch', 4, 'a-compressed'),
      s('a-delegate', 2.5, 'a'),
    ]);
    expect(ids(units)).toEqual([['a', 'a-delegate', 'a-compressed', 'a-branch'], ['b', 'child-of-b']]);
  });

  it('orders units by their first session in the whole file’s order; a parent started later still comes first', () => {
    expect(ids(lineageUnits([s('late-parent', 9), s('early', 1), s('child', 2, 'late-parent')]))).toEqual([['early'], ['late-parent', 'child']]);
  });

  it('keeps a session whose parent is missing, itself or part of a cycle, each exactly once', () => {
    const units = lineageUnits([s('orphan', 1, 'gone'), s('self', 2, 'self'), s('x', 3, 'y'), s('y', 4, 'x')]);
    // In a cycle the whole-file order places x's parent (y) first, and stops there.
    expect(ids(units)).toEqual([['orphan'], ['self'], ['y', 'x']]);
  });
});

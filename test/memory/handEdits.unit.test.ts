import { describe, expect, it } from 'vitest';
import { handEditsOf, type MemoryEntry } from '@session-ledger/memory';

const entry = (id: string, content: string, target: 'memory' | 'user' = 'memory'): MemoryEntry => ({ id, target, content });
const written = [entry('a', 'Uses the blue notebook'), entry('b', 'Deadline is Friday'), entry('c', 'Likes tea'), entry('u', 'Name is Ada', 'user')];

// Outside test, session 34 (helper-94 F1): the only way to keep hand edits, the Hermes import, only added.
describe('hand edits of a mirrored file, as operations on the profile', () => {
  it('Given the mirror wrote three entries, When one is corrected in place, one deleted and one added by hand, Then a replace by id, a remove by id and an add', () => {
    const text = 'Uses the green notebook\n§\nLikes tea\n§\nPrefers vim';
    expect(handEditsOf('memory', written, text, written)).toEqual([
      { op: 'replace', target: 'memory', entryId: 'a', content: 'Uses the green notebook' },
      { op: 'remove', target: 'memory', entryId: 'b' },
      { op: 'add', target: 'memory', content: 'Prefers vim' },
    ]);
    // The other target's file is untouched: nothing.
    expect(handEditsOf('user', written, 'Name is Ada', written)).toEqual([]);
  });

  it('Given other writers went on since the mirror parked, Then entries they took out are not removed again, and texts they added are not added twice', () => {
    const current = [entry('b', 'Deadline is Friday'), entry('c', 'Likes tea'), entry('d', 'Prefers vim')];
    const text = 'Uses the green notebook\n§\nLikes tea\n§\nPrefers vim';
    // "a" is gone from the profile: its correction is an add; "b" deleted by hand is still held: removed.
    expect(handEditsOf('memory', written, text, current)).toEqual([
      { op: 'remove', target: 'memory', entryId: 'b' },
      { op: 'add', target: 'memory', content: 'Uses the green notebook' },
    ]);
  });

  it('Given a file read as Hermes reads it (a BOM, CRLF, a final newline), Then no edit; an absent file is none either', () => {
    expect(handEditsOf('memory', written, '\ufeffUses the blue notebook\r\n§\r\nDeadline is Friday\r\n§\r\nLikes tea\n', written)).toEqual([]);
    expect(handEditsOf('memory', written, null, written)).toEqual([]);
  });

  it('Given no mapping (Hermes wrote the files), Then every entry the profile lacks is an add and nothing is removed', () => {
    expect(handEditsOf('user', [], 'Name is Ada\n§\nLives in London', written)).toEqual([{ op: 'add', target: 'user', content: 'Lives in London' }]);
  });

  it('Given the edits committed already (an adopt killed before its rebuild, run again), Then no operation: the correction is not taken for a duplicate and removed', () => {
    const text = 'Uses the green notebook\n§\nLikes tea\n§\nPrefers vim';
    const committed = [entry('a', 'Uses the green notebook'), entry('c', 'Likes tea'), entry('d', 'Prefers vim'), written[3]!];
    expect(handEditsOf('memory', written, text, committed)).toEqual([]);
  });
});

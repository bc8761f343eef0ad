import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advanceConversation, displayView, foldConversation, MessageIndex } from '@session-ledger/projections';
import { history } from './given.js';

/** The index against a Map, the structure it replaces: same answers for any ids, in any order. */
describe('message index', () => {
  it('given any ids (repeats, shared prefixes, non-ASCII), when filed one by one from an empty index, then it answers as a Map does', () => {
    const id = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('m-1', 'm-10', 'm-100', 'é', '\u{1F600}'), fc.nat(5000).map((n) => `m-${n}`));
    fc.assert(
      fc.property(fc.array(id, { maxLength: 400 }), fc.array(id, { maxLength: 50 }), (ids, probes) => {
        const index = new MessageIndex();
        const model = new Map<string, number>();
        for (const each of ids) {
          expect(index.add(each)).toBe(model.get(each));
          if (!model.has(each)) model.set(each, model.size);
        }
        expect(index.size).toBe(model.size);
        for (const each of [...ids, ...probes]) expect(index.get(each)).toBe(model.get(each));
      }),
      { numRuns: 200 },
    );
  });

  it('given an index sized for few entries, when far more are filed, then it grows and every earlier answer holds', () => {
    const index = new MessageIndex(4);
    for (let n = 0; n < 10_000; n += 1) expect(index.add(`id-${n}`)).toBeUndefined();

    expect(index.size).toBe(10_000);
    expect([0, 1, 4_999, 9_999].map((n) => index.get(`id-${n}`))).toEqual([0, 1, 4_999, 9_999]);
    expect(index.add('id-77')).toBe(77);
    expect(index.get('id-10000')).toBeUndefined();
  });

  it('given a copy, when either side files new ids, then the other does not see them', () => {
    const base = new MessageIndex();
    base.add('a');
    const copy = base.copy();
    copy.add('b');
    base.add('c');

    expect([base.get('b'), base.get('c'), base.size]).toEqual([undefined, 1, 2]);
    expect([copy.get('b'), copy.get('c'), copy.size]).toEqual([1, undefined, 2]);
  });

  it('given one folded state, when two live views advance it with the same new messages, then both show them and the base is unchanged', () => {
    const given = history().start('a').message('a', 'm1', 'one');
    const base = foldConversation(given.records);
    const seen = given.records.length;
    given.message('a', 'm2', 'two');
    const newer = given.records.slice(seen);

    const first = advanceConversation(base, newer);
    const second = advanceConversation(base, newer);

    expect(displayView(first).messages.map((message) => message.id)).toEqual(['m1', 'm2']);
    expect(displayView(second).messages.map((message) => message.id)).toEqual(['m1', 'm2']);
    expect(second.skipped).toEqual([]);
    expect([base.messageIndex.size, base.messageIndex.get('m2')]).toEqual([1, undefined]);
  });

  it('given records as a one-shot iterable (no length to size the index by), when folded, then the result equals the fold of the array', () => {
    const given = history().start('a');
    for (let n = 0; n < 300; n += 1) given.message('a', `m${n}`, `text ${n}`);
    given.message('a', 'm7', 'a duplicate');

    const fromIterable = foldConversation((function* () {
      yield* given.records;
    })());

    expect(displayView(fromIterable)).toEqual(displayView(foldConversation(given.records)));
    expect(fromIterable.skipped.map((skipped) => skipped.reason)).toEqual(['duplicate message id m7']);
  });
});

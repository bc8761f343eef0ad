import { describe, expect, it } from 'vitest';
import { activeView, foldConversation } from '@session-ledger/projections';
import { history } from './given.js';

const shape = (items: ReturnType<typeof activeView>['messages']) =>
  items.map((item) => (item.kind === 'summary' ? `[${item.content}]` : `${item.id}:${item.content}`));

describe('active view', () => {
  it('given an in-place compaction, when folded, then compacted messages leave and the summary stands at their place', () => {
    const given = history().start('a').message('a', 'm1', 'one').message('a', 'm2', 'two').message('a', 'm3', 'three');
    given.compactThrough('a', 'm2', 's1', 'one+two');

    expect(shape(activeView(foldConversation(given.records)).messages)).toEqual(['[one+two]', 'm3:three']);
  });

  it('given a second through-compaction, when folded, then it replaces the earlier summary too', () => {
    const given = history().start('a').message('a', 'm1', 'one').message('a', 'm2', 'two').compactThrough('a', 'm1', 's1', 'S1');
    given.message('a', 'm3', 'three').compactThrough('a', 'm2', 's2', 'S2');

    expect(shape(activeView(foldConversation(given.records)).messages)).toEqual(['[S2]', 'm3:three']);
  });

  it('given a listed compaction in the middle, when folded, then only those leave and the summary takes the first one place', () => {
    const given = history().start('a').message('a', 'sys', 'prompt', 'system').message('a', 'm1', 'one').message('a', 'm2', 'two');
    given.message('a', 'm3', 'three').compactListed('a', ['m1', 'm2'], 's1', 'S');

    expect(shape(activeView(foldConversation(given.records)).messages)).toEqual(['sys:prompt', '[S]', 'm3:three']);
  });

  it('given a compression whose summary is one of the child messages, when folded, then it stands once, as that message where it was written', () => {
    const given = history().start('a').message('a', 'm1', 'old');
    given.compress('a', 'b', 'a', 'SUMMARY', { summaryId: 'm3' }).message('b', 'm2', 'head copy').message('b', 'm3', 'SUMMARY').message('b', 'm4', 'new');

    expect(shape(activeView(foldConversation(given.records)).messages)).toEqual(['m2:head copy', 'm3:SUMMARY', 'm4:new']);
  });

  it('given a compression that left no summary text, when folded, then no empty summary item stands in the active view', () => {
    const given = history().start('a').message('a', 'm1', 'old');
    given.compress('a', 'b', 'a', '').message('b', 'm2', 'new');

    expect(shape(activeView(foldConversation(given.records)).messages)).toEqual(['m2:new']);
  });

  it('given a compression chain, when folded, then active is the tip context: its summary and its own messages', () => {
    const given = history().start('a').message('a', 'm1', 'old').compactThrough('a', 'm1', 's1', 'S1');
    given.compress('a', 'b', 'a', 'all of a').message('b', 'm2', 'new');

    const view = activeView(foldConversation(given.records));

    expect(view.tipId).toBe('b');
    expect(shape(view.messages)).toEqual(['[all of a]', 'm2:new']);
    expect(view.messages[0]).toMatchObject({ kind: 'summary', source: 'compression', sessionId: 'b' });
  });

  // Outside test, session 35 (helper-96 F5): every compression summary said it replaced 0 messages.
  it('given a compression, when folded, then its summary counts the messages it took out of the active view, as a compaction does', () => {
    const given = history().start('a').message('a', 'm1', 'one').message('a', 'm2', 'two').message('a', 'm3', 'three').message('a', 'm4', 'four');
    given.compactThrough('a', 'm2', 's1', 'S1').rewind('a', ['m4']);
    given.compress('a', 'b', 'a', 'all of a').message('b', 'm5', 'new');

    const [summary] = activeView(foldConversation(given.records)).messages;
    // m3 only: m1 and m2 left with the compaction (its summary counts them), m4 was rewound.
    expect(summary).toMatchObject({ kind: 'summary', source: 'compression', replaced: 1 });
    const plain = history().start('a').message('a', 'm1', 'one').message('a', 'm2', 'two').message('a', 'm3', 'three');
    plain.compress('a', 'b', 'a', 'three messages said');
    expect(activeView(foldConversation(plain.records)).messages[0]).toMatchObject({ source: 'compression', replaced: 3 });
  });

  it('given rewrites and rewinds, when folded, then active has the latest content and no rewound message', () => {
    const given = history().start('a').message('a', 'm1', 'draft').message('a', 'm2', 'oops').rewrite('a', 'm1', 'final').rewind('a', ['m2']);

    expect(shape(activeView(foldConversation(given.records)).messages)).toEqual(['m1:final']);
  });

  it('given a compaction through a message of an older segment, when folded, then it is skipped (that history is compressed already)', () => {
    const given = history().start('a').message('a', 'm1', 'old').compress('a', 'b', 'a', 'A').message('b', 'm2', 'new');
    given.compactThrough('b', 'm1', 'late');

    const state = foldConversation(given.records);

    expect(shape(activeView(state).messages)).toEqual(['[A]', 'm2:new']);
    expect(state.skipped).toEqual([expect.objectContaining({ type: 'history.compacted' })]);
  });
});

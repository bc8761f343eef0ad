import { describe, expect, it } from 'vitest';
import { activeView, afterReset, displayView, foldConversation } from '@session-ledger/projections';
import { history } from './given.js';

describe('display after a reset', () => {
  const earlierThread = () => {
    const given = history().start('old').message('old', 'o1', 'first question').message('old', 'o2', 'first answer', 'assistant');
    given.compress('old', 'old2', 'old').message('old2', 'o3', 'second question');
    return displayView(foldConversation(given.records));
  };
  const resetChild = () => {
    const given = history().start('new', { parentId: 'old2', link: 'reset' }).message('new', 'n1', 'fresh question');
    given.message('new', 'n2', 'fresh answer', 'assistant').compactThrough('new', 'n1', 'sum', 'asked afresh');
    return foldConversation(given.records);
  };

  it('given a conversation and the one it reset, when composed, then the earlier messages come first and identity stays the later one', () => {
    const earlier = earlierThread();
    const own = displayView(resetChild());

    const view = afterReset(earlier, own);

    expect(view.messages.map((message) => [message.id, message.sessionId])).toEqual([
      ['o1', 'old'],
      ['o2', 'old'],
      ['o3', 'old2'],
      ['n1', 'new'],
      ['n2', 'new'],
    ]);
    expect([view.rootId, view.tipId, view.earlier?.messages]).toEqual(['new', 'new', 3]);
    expect(view.segments.map((segment) => segment.sessionId)).toEqual(['new']);
    expect(view.earlier?.segments.map((segment) => segment.sessionId)).toEqual(['old', 'old2']);
    expect(view.turns).toBe(own.turns);
  });

  it('given a marker in the later conversation, when composed, then its index counts the earlier messages', () => {
    const view = afterReset(earlierThread(), displayView(resetChild()));

    const compaction = view.markers.find((marker) => marker.kind === 'compaction');
    expect(compaction).toMatchObject({ sessionId: 'new', index: 3 + displayView(resetChild()).markers.find((m) => m.kind === 'compaction')!.index });
    expect(view.markers.filter((marker) => marker.kind === 'compression').map((marker) => marker.index)).toEqual([2]);
  });

  it('given three conversations reset one after another, when composed twice, then the oldest comes first and earlier counts both', () => {
    const oldest = displayView(foldConversation(history().start('a').message('a', 'a1', 'a').records));
    const middle = displayView(foldConversation(history().start('b', { parentId: 'a', link: 'reset' }).message('b', 'b1', 'b').message('b', 'b2', 'b').records));
    const own = displayView(resetChild());

    const view = afterReset(oldest, afterReset(middle, own));

    expect(view.messages.map((message) => message.id)).toEqual(['a1', 'b1', 'b2', 'n1', 'n2']);
    expect(view.earlier?.messages).toBe(3);
    expect(view.earlier?.segments.map((segment) => segment.sessionId)).toEqual(['a', 'b']);
  });

  it('given a reset child, when folded, then its active view starts afresh: nothing of the conversation it reset', () => {
    const active = activeView(resetChild());

    expect(active.messages.map((item) => (item.kind === 'summary' ? `summary:${item.content}` : item.id))).toEqual(['summary:asked afresh', 'n2']);
  });
});

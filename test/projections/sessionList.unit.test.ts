import { describe, expect, it } from 'vitest';
import { foldSessionList } from '@session-ledger/projections';
import { history } from './given.js';

describe('session list', () => {
  it('given a root with 4 compressions, when folded, then it is one row from root to tip with every message', () => {
    const given = history().start('root', { title: 'Research' });
    given.compress('root', 's1', 'root').compress('s1', 's2', 'root').compress('s2', 's3', 'root');
    given.message('s3', 'm1', 'a').message('s3', 'm2', 'b').compress('s3', 's4', 'root');

    const rows = foldSessionList(given.records, '2026-01-01T00:00:00Z');

    expect(rows).toEqual([
      expect.objectContaining({ rootId: 'root', tipId: 's4', segments: ['root', 's1', 's2', 's3', 's4'], messages: 2, live: false, title: 'Research' }),
    ]);
  });

  it('given a delegated child, when folded, then it is its own row naming its parent', () => {
    const given = history().start('a').message('a', 'm1', 'x').delegate('a', 'sub').message('sub', 's1', 'y').message('sub', 's2', 'z');

    const rows = foldSessionList(given.records, '2026-01-01T00:00:00Z');

    expect(rows.map((row) => [row.rootId, row.messages, row.parentId, row.link])).toEqual([
      ['sub', 2, 'a', 'delegation'],
      ['a', 1, null, null],
    ]);
  });

  it('given a turn that began before a compression and has not ended, when folded at a time before its lease expires, then the row is live', () => {
    const given = history().start('a').turn('a', 't1', '2026-01-01T01:00:00.000Z');
    given.compress('a', 'b', 'a');

    expect(foldSessionList(given.records, '2026-01-01T00:30:00Z')[0]!.live).toBe(true);
    expect(foldSessionList(given.records, '2026-01-01T01:00:00Z')[0]!.live).toBe(false);
  });

  it('given a turn that began in a segment and ended in its compression child, when folded, then the row is not live', () => {
    const given = history().start('a').turn('a', 't1', '2026-01-01T01:00:00.000Z').compress('a', 'b', 'a').endTurn('b', 't1');

    expect(foldSessionList(given.records, '2026-01-01T00:30:00Z')[0]!.live).toBe(false);
  });

  it('given several conversations, when folded, then rows come most recent activity first', () => {
    const given = history().start('old').start('new').message('old', 'm1', 'late activity');

    expect(foldSessionList(given.records, '2026-01-01T00:00:00Z').map((row) => row.rootId)).toEqual(['old', 'new']);
  });

  // Outside test, session 26: a message given the time 9999-12-31 kept its conversation first in every list, inside
  // every --since, and never pruned.
  it('given a message whose writer time is in the future, when folded, then its activity is the time it was stored', () => {
    const given = history().start('future').start('now').message('now', 'm2', 'hi');
    given.event('future', { type: 'message.appended', data: { messageId: 'm1', role: 'user', content: 'hi', timestamp: '9999-12-31T23:59:59.999Z' } });
    const stored = given.records[given.records.length - 1]!.created;

    const rows = foldSessionList(given.records, '2026-01-01T00:00:00Z');

    expect(rows.map((row) => [row.rootId, row.lastActivity])).toEqual([
      ['future', stored],
      ['now', (given.records[2]!.data as { timestamp: string }).timestamp], // a writer time in the past stays
    ]);
  });
});

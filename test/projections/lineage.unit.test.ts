import { describe, expect, it } from 'vitest';
import { descendantConversations, foldLineage, lineageIndex } from '@session-ledger/projections';
import { history } from './given.js';

describe('lineage', () => {
  it('given a compression chain with a delegated child and a branch, when folded, then every id knows its root and tip', () => {
    const given = history().start('a').compress('a', 'b', 'a').delegate('b', 'sub').compress('b', 'c', 'a');
    given.compress('sub', 'sub2', 'sub').delegate('sub2', 'subsub', 'branch');

    const index = lineageIndex(foldLineage(given.records));

    for (const id of ['a', 'b', 'c']) expect(index.get(id)).toMatchObject({ rootId: 'a', tipId: 'c' });
    for (const id of ['sub', 'sub2']) expect(index.get(id)).toMatchObject({ rootId: 'sub', tipId: 'sub2' });
    expect(index.get('sub')).toMatchObject({ parentId: 'b', link: 'delegation' });
    expect(index.get('b')!.children).toEqual([{ childId: 'sub', link: 'delegation' }]);
    expect(index.get('subsub')).toMatchObject({ rootId: 'subsub', link: 'branch', parentId: 'sub2' });
  });

  it('given delegated children of children, when asked for a root descendants, then every delegated conversation is found', () => {
    const given = history().start('a').delegate('a', 'd1').compress('a', 'b', 'a').delegate('b', 'd2').delegate('d1', 'd3').start('other');

    expect(descendantConversations(foldLineage(given.records), 'a').sort()).toEqual(['d1', 'd2', 'd3']);
  });

  it('given a link a refused parent kept (another start took the child id), when asked for its descendants, then that child is not one', () => {
    const given = history().start('a').start('q').delegate('q', 'd');
    given.event('a', { type: 'session.child_linked', data: { childId: 'd', link: 'delegation', linkedAt: given.at() } });

    const view = foldLineage(given.records);

    expect(descendantConversations(view, 'a')).toEqual([]);
    expect(descendantConversations(view, 'q')).toEqual(['d']);
  });

  it('given a continued segment whose child never started, when folded, then that segment is its own tip', () => {
    const given = history().start('a').compress('a', 'b', 'a', 'S', { childStarts: false });

    const index = lineageIndex(foldLineage(given.records));

    expect(index.get('a')).toMatchObject({ rootId: 'a', tipId: 'a', continuedIn: 'b' });
    expect(index.has('b')).toBe(false);
  });

  it('given a 1000-segment chain, when folded, then roots and tips resolve for every segment', () => {
    const given = history().start('s0');
    for (let i = 1; i < 1000; i += 1) given.compress(`s${i - 1}`, `s${i}`, 's0');

    const view = foldLineage(given.records);

    expect(view.nodes.every((node) => node.rootId === 's0' && node.tipId === 's999')).toBe(true);
  });

  it('given a continuation withdrawn (the source deleted the child and went on in the segment), when folded, then the child is a conversation of its own and the segment its own tip', () => {
    const given = history().start('a').compress('a', 'b', 'a').message('b', 'm1', 'in b').withdraw('a', 'b').message('a', 'm2', 'in a again');

    const index = lineageIndex(foldLineage(given.records));

    expect(index.get('a')).toMatchObject({ rootId: 'a', tipId: 'a', continuedIn: null });
    expect(index.get('b')).toMatchObject({ rootId: 'b', tipId: 'b', parentId: 'a', link: 'compression' });
  });

  it('given a withdrawal naming another child than the one in force, when folded, then the continuation stands', () => {
    const given = history().start('a').compress('a', 'b', 'a').withdraw('a', 'x');

    expect(lineageIndex(foldLineage(given.records)).get('b')).toMatchObject({ rootId: 'a', tipId: 'b' });
  });

  it('given a segment compressed again after a withdrawal, when folded, then the new child continues it and the old one stays apart', () => {
    const given = history().start('a').compress('a', 'b', 'a').withdraw('a', 'b').compress('a', 'c', 'a');

    const index = lineageIndex(foldLineage(given.records));

    for (const id of ['a', 'c']) expect(index.get(id)).toMatchObject({ rootId: 'a', tipId: 'c' });
    expect(index.get('b')).toMatchObject({ rootId: 'b', tipId: 'b' });
  });
});

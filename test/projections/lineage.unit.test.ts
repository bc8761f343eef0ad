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
});

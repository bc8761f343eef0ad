import { describe, expect, it } from 'vitest';
import type { DeletionRecord, StreamInfo } from '@session-ledger/core';
import { checkStreamStates, type LogStreams } from '../../packages/core/src/log/streamStates.js';

const record = (logSize: number): DeletionRecord => ({ id: 1, stream: 'chat', kind: 'soft', fromRevision: 0n, headRevision: 4n, headHash: null, firstLeaf: 0, lastLeaf: 4, logSize, at: 'now' });
const live: StreamInfo = { name: 'chat', lastRevision: 4n, firstLive: 0n, tombstoned: false };
const deleted: StreamInfo = { ...live, firstLive: 5n };
const breaks = (listed: StreamInfo[], log: Partial<LogStreams>, committed: DeletionRecord[]) => {
  const found: string[] = [];
  checkStreamStates(listed, { verified: new Map([['chat', 4n]]), appended: new Map(), size: 5, listedAt: 5, ...log }, committed, (kind, stream, revision, _position, _leaf, what) => found.push(`${kind} ${stream}@${revision}: ${what}`));
  return found;
};

describe("verify's stream states on a live ledger: Given the states listed, When deletions commit around that read, Then", () => {
  it('a deletion committed before the states were listed must show in them', () => {
    expect(breaks([live], { size: 5, listedAt: 6 }, [record(5)])).toEqual(['hidden chat@null: reads start at revision 0, the recorded deletions say 5']);
    expect(breaks([deleted], { size: 5, listedAt: 6 }, [record(5)])).toEqual([]);
  });

  it('a deletion committed while they were listed is not held against them, whichever side of it they show', () => {
    expect(breaks([live], { size: 5, listedAt: 5 }, [record(5)])).toEqual([]);
    expect(breaks([deleted], { size: 5, listedAt: 5 }, [record(5)])).toEqual([]);
  });

  it('an append committed after the verified size counts toward the last revision a state may claim', () => {
    expect(breaks([{ ...live, lastRevision: 6n }], {}, [])).toEqual(['hidden chat@6: the stream\'s state says its last revision is 6, the log reaches 4']);
    expect(breaks([{ ...live, lastRevision: 6n }], { appended: new Map([['chat', 6n]]) }, [])).toEqual([]);
  });
});

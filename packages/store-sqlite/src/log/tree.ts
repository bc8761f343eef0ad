import { eventLeafHash, nodeHash, type SubtreeLookup } from '@session-ledger/core';
import type { LogStatements } from './statements.js';

export const logSize = (sql: LogStatements): number => Number(sql.size.get() as bigint);

/** Stored complete subtrees: level 0 from the leaves, the rest from log_nodes. */
export const storedLookup =
  (sql: LogStatements): SubtreeLookup =>
  (level, index) => {
    const hash = (level === 0 ? sql.leafHash.get(BigInt(index)) : sql.nodeHash.get(BigInt(level), BigInt(index))) as Buffer | undefined;
    if (!hash) throw new Error(`the log has no subtree ${level}/${index}`);
    return hash;
  };

/**
 * Appends one event's leaf, and the hash of every subtree it completes (amortised one): a leaf at
 * an odd index completes a pair, whose node at an odd index completes the next, and so on.
 */
export const appendLeaf = (sql: LogStatements, position: bigint, stream: string, revision: bigint, chainHash: string, created: string): number => {
  const index = logSize(sql);
  let hash = eventLeafHash({ index, stream, revision, hash: chainHash, created });
  sql.insertLeaf.run(BigInt(index), position, stream, revision, hash);
  const lookup = storedLookup(sql);
  let level = 0;
  let at = index;
  while (at % 2 === 1) {
    hash = nodeHash(lookup(level, at - 1), hash);
    level += 1;
    at = (at - 1) / 2;
    sql.insertNode.run(BigInt(level), BigInt(at), hash);
  }
  return index;
};

/** The leaf holding a position: positions grow with leaf indices, so a binary search. */
export const leafAtPosition = (sql: LogStatements, position: bigint, size = logSize(sql)): number | null => {
  let low = 0;
  let high = size - 1;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const found = sql.leafPosition.get(BigInt(middle)) as bigint;
    if (found === position) return middle;
    if (found < position) low = middle + 1;
    else high = middle - 1;
  }
  return null;
};

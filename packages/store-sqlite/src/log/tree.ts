import { deletionLeafHash, logDamaged, nodeHash, treeRoot, type DeletionLeafFields, type SubtreeLookup } from '@session-ledger/core';
import type { LogStatements } from './statements.js';

export const logSize = (sql: LogStatements): number => Number(sql.size.get() as bigint);

import { STORED_FROM, TILE } from './tile.js';

export { STORED_FROM, TILE };

/** The root of the subtree of 2^level leaves at `index`, from its leaves (log_damaged when one is gone). */
const fromLeaves = (sql: LogStatements, level: number, index: number): Buffer => {
  const width = 2 ** level;
  return treeRoot(leafRange(sql, index * width, (index + 1) * width));
};

/** A stored hash: 32 bytes in a blob; anything else (written behind the store's back) is none. */
const hashOf = (cell: unknown): Buffer | undefined => (Buffer.isBuffer(cell) && cell.length === 32 ? cell : undefined);

/** The hashes of leaves [from, to), or log_damaged naming the first one gone (or no hash). */
export const leafRange = (sql: LogStatements, from: number, to: number): Buffer[] => {
  const leaves = sql.leafRange.all(BigInt(from), BigInt(to)) as unknown[];
  if (leaves.length !== to - from || !leaves.every((leaf) => hashOf(leaf))) throw logDamaged(missingLeaf(sql, from, to - from));
  return leaves as Buffer[];
};

/** The first leaf index of [from, from + width) without a row (or a hash). */
const missingLeaf = (sql: LogStatements, from: number, width: number): number => {
  for (let index = from; index < from + width; index += 1) if (!hashOf(sql.leafHash.get(BigInt(index)))) return index;
  return from;
};

/**
 * A stored node is the hash of leaves the log holds: one deleted behind the store's back is computed
 * again from its two halves (so from its leaves in the end), and roots and proofs stay right; only a
 * leaf gone is damage (log_damaged).
 */
export const storedLookup = (sql: LogStatements): SubtreeLookup => {
  const lookup: SubtreeLookup = (level, index) => {
    if (level > 0 && level < STORED_FROM) return fromLeaves(sql, level, index);
    if (level === 0) {
      const leaf = hashOf(sql.leafHash.get(BigInt(index)));
      if (!leaf) throw logDamaged(index);
      return leaf;
    }
    const hash = hashOf(sql.nodeHash.get(BigInt(level), BigInt(index)));
    return hash ?? nodeHash(lookup(level - 1, 2 * index), lookup(level - 1, 2 * index + 1));
  };
  return lookup;
};

/** Appends a deletion's leaf (its position: the previous leaf's, so positions never decrease). */
export const appendDeletionLeaf = (sql: LogStatements, id: bigint, fields: DeletionLeafFields): void => {
  const position = fields.index === 0 ? 0n : (sql.leafPosition.get(BigInt(fields.index - 1)) as bigint);
  sql.insertLeaf.run(BigInt(fields.index), position, fields.stream, fields.headRevision, deletionLeafHash(fields), id);
  completeSubtrees(sql, fields.index);
};

/**
 * After the leaf at `index` (an event's, by writer.ts, or a deletion's): a leaf that completes a tile
 * of 16 stores the tile's root (`tileRoot` when the caller has it, else from the tile's leaves) and
 * the root of every larger subtree that completes with it (a tile at an odd index completes a pair,
 * whose node at an odd index completes the next, and so on).
 */
export const completeSubtrees = (sql: LogStatements, index: number, tileRoot?: Buffer): void => {
  if ((index + 1) % TILE !== 0) return;
  const lookup = storedLookup(sql);
  let level = STORED_FROM;
  let at = (index + 1) / TILE - 1;
  let hash = tileRoot ?? fromLeaves(sql, level, at);
  sql.insertNode.run(BigInt(level), BigInt(at), hash);
  while (at % 2 === 1) {
    hash = nodeHash(lookup(level, at - 1), hash);
    level += 1;
    at = (at - 1) / 2;
    sql.insertNode.run(BigInt(level), BigInt(at), hash);
  }
};

/**
 * The leaf holding a position: positions never decrease with leaf indices, so a binary search for
 * the first leaf at or past it (an event's leaf comes before deletion leaves that repeat its position).
 */
export const leafAtPosition = (sql: LogStatements, position: bigint, size = logSize(sql)): number | null => {
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if ((sql.leafPosition.get(BigInt(middle)) as bigint) < position) low = middle + 1;
    else high = middle;
  }
  return low < size && (sql.leafPosition.get(BigInt(low)) as bigint) === position ? low : null;
};

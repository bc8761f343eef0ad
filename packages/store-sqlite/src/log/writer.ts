import { eventLeafHash, treeRoot } from '@session-ledger/core';
import type { LogStatements } from './statements.js';
import { completeSubtrees, leafRange, logSize, TILE } from './tree.js';

/** The append side of one connection's log (see logWriter). */
export interface LogWriter {
  /**
   * Appends one event's leaf in the caller's transaction; returns its index. `index`: the log's
   * size, when the caller knows it (the leaf after the one it just appended in the same
   * transaction); read from the log otherwise.
   */
  append(position: bigint, stream: string, revision: bigint, chainHash: string, created: string, index?: number): number;
  /**
   * Drops what it remembers. Called when what it wrote may be gone (the append's savepoint or the
   * group's transaction rolled back) and before a delete writes the log.
   */
  forget(): void;
}

/**
 * Appends leaves like `appendLeaf` (tree.ts), remembering the leaf hashes of the log's last,
 * incomplete tile, so that the append completing a tile hashes it from memory instead of reading
 * its 16 leaves back (that read was about a third of what the log cost an append).
 *
 * What it remembers is only used while the log's size is the size it left: leaves are never
 * removed or rewritten, so a log of that size holds exactly the leaves it knows, whoever wrote
 * since. Any other size (another connection appended, or a delete added its leaf) reads the tile's
 * leaves again. A rollback could leave it holding leaves that are gone, which a later leaf by
 * another connection would then bring back to the same size: the store calls `forget` on every
 * rollback (a refused append, a group whose BEGIN or COMMIT failed) and before every delete.
 */
export const logWriter = (sql: LogStatements): LogWriter => {
  let tail: { size: number; tile: Buffer[] } | undefined;

  const tailAt = (size: number) => {
    if (tail?.size === size) return tail;
    const start = size - (size % TILE);
    tail = { size, tile: leafRange(sql, start, size) };
    return tail;
  };

  return {
    append(position, stream, revision, chainHash, created, size) {
      const index = size ?? logSize(sql);
      const known = tailAt(index);
      const hash = eventLeafHash({ index, position, stream, revision, hash: chainHash, created });
      sql.insertLeaf.run(BigInt(index), position, stream, revision, hash, null);
      known.tile.push(hash);
      known.size = index + 1;
      if (known.tile.length === TILE) {
        completeSubtrees(sql, index, treeRoot(known.tile));
        known.tile = [];
      }
      return index;
    },
    forget() {
      tail = undefined;
    },
  };
};

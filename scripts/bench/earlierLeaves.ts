import Database from 'better-sqlite3';
import { eventLeafHash, nodeHash } from '@session-ledger/core';

interface LeafRow {
  leaf: bigint;
  stream: string;
  revision: bigint;
  metadata: string;
  created: string;
}

/**
 * Rewrites a ledger file as a session-ledger before schema version 7 wrote it: every event leaf in
 * the earlier form (no position), the stored subtrees hashed again over them, the file marked version
 * 6 (the next open migrates it, as a user's file would be). For the verify row of such a file
 * (auditLog.ts). Event leaves only: the file must hold no deletion.
 */
export const asEarlierLeaves = (file: string): void => {
  const db = new Database(file);
  // Pages, not one iterator: the connection cannot write while a statement is still reading.
  const page = db
    .prepare('SELECT l.leaf_index AS leaf, e.stream, e.revision, e.metadata, e.created FROM log_leaves l JOIN events e ON e.position = l.position WHERE l.leaf_index > ? ORDER BY l.leaf_index LIMIT 10000')
    .safeIntegers(true);
  const update = db.prepare('UPDATE log_leaves SET hash = ? WHERE leaf_index = ?');
  const levels: Buffer[][] = [[]];
  db.transaction(() => {
    for (let after = -1n; ; ) {
      const rows = page.all(after) as LeafRow[];
      if (rows.length === 0) break;
      for (const row of rows) {
        const hash = eventLeafHash({ index: Number(row.leaf), position: null, stream: row.stream, revision: row.revision, hash: (JSON.parse(row.metadata) as { hash: string }).hash, created: row.created });
        update.run(hash, row.leaf);
        levels[0]!.push(hash);
      }
      after = rows[rows.length - 1]!.leaf;
    }
  })();
  // Every complete subtree, level by level; the stored ones take their new hashes.
  for (let level = 1; levels[level - 1]!.length > 1; level += 1) {
    const below = levels[level - 1]!;
    levels.push(Array.from({ length: Math.floor(below.length / 2) }, (_, at) => nodeHash(below[2 * at]!, below[2 * at + 1]!)));
  }
  const node = db.prepare('UPDATE log_nodes SET hash = ? WHERE level = ? AND idx = ?');
  const stored = db.prepare('SELECT level, idx FROM log_nodes').raw(true).all() as Array<[number, number]>;
  db.transaction(() => stored.forEach(([level, at]) => node.run(levels[level]![at]!, level, at)))();
  db.exec(`DELETE FROM ledger_meta WHERE key = 'log.leaf'; PRAGMA user_version = 6`);
  db.close();
};

import type Database from 'better-sqlite3';

const SQL = {
  size: 'SELECT coalesce(max(leaf_index) + 1, 0) FROM log_leaves',
  insertLeaf: 'INSERT INTO log_leaves (leaf_index, position, stream, revision, hash, deletion) VALUES (?, ?, ?, ?, ?, ?)',
  /** OR REPLACE: a node for a subtree not complete yet is never read, so one written behind the store's back is overwritten, not a failed append. */
  insertNode: 'INSERT OR REPLACE INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)',
  leafHash: 'SELECT hash FROM log_leaves WHERE leaf_index = ?',
  /** Leaves [from, to): fewer than to - from rows when one is gone. */
  leafRange: 'SELECT hash FROM log_leaves WHERE leaf_index >= ? AND leaf_index < ? ORDER BY leaf_index',
  nodeHash: 'SELECT hash FROM log_nodes WHERE level = ? AND idx = ?',
  nodesAt: 'SELECT idx, hash FROM log_nodes WHERE level = ? AND idx >= ? AND idx <= ? ORDER BY idx',
  leafPosition: 'SELECT position FROM log_leaves WHERE leaf_index = ?',
  leaf: 'SELECT leaf_index, position, stream, revision, hash FROM log_leaves WHERE leaf_index = ?',
  leafOfErased: 'SELECT leaf_index FROM log_leaves WHERE stream = ? AND revision = ?',
  eventAt: 'SELECT position, stream, revision, id, type, data, metadata, created FROM events WHERE stream = ? AND revision = ?',
  entries: `SELECT l.leaf_index, l.position AS leaf_position, l.stream AS leaf_stream, l.revision AS leaf_revision, l.hash,
      e.position, e.stream, e.revision, e.id, e.type, e.data, e.metadata, e.created,
      l.deletion, d.id AS deletion_id, d.kind, d.from_revision, d.head_revision, d.head_hash, d.first_leaf, d.last_leaf, d.log_size, d.at, d.stream AS deletion_stream
    FROM log_leaves l LEFT JOIN events e ON e.position = l.position AND l.deletion IS NULL
      LEFT JOIN log_deletions d ON d.id = l.deletion
    WHERE l.leaf_index >= ? ORDER BY l.leaf_index LIMIT ?`,
  strays: `SELECT position, stream, revision, id, type, data, metadata, created FROM events
    WHERE position NOT IN (SELECT position FROM log_leaves) ORDER BY position`,
  // The strays above a clean verify pass's last position (EventLog.strays' bound): every event leaf below the
  // verified size holds a position at most that, and every deletion leaf there is its record's log_size (the pass
  // checked both), so the leaves from that size on and the deletion leaves are all that can hold one. The rowid
  // ranges read only those: no temporary b-tree of every leaf's position.
  straysAbove: `SELECT position, stream, revision, id, type, data, metadata, created FROM events
    WHERE position > ? AND position NOT IN (SELECT position FROM log_leaves WHERE leaf_index >= ?
      UNION ALL SELECT position FROM log_leaves WHERE leaf_index IN (SELECT log_size FROM log_deletions)) ORDER BY position`,
  streamSpan: 'SELECT min(position) AS first, max(position) AS last FROM events WHERE stream = ?',
  headEvent: 'SELECT stream, revision, id, type, data, metadata FROM events WHERE stream = ? AND revision = ?',
  insertDeletion: `INSERT INTO log_deletions (stream, kind, from_revision, head_revision, head_hash, first_leaf, last_leaf, log_size, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  deletions: 'SELECT id, stream, kind, from_revision, head_revision, head_hash, first_leaf, last_leaf, log_size, at FROM log_deletions ORDER BY id',
} as const;

const PLUCKED = new Set(['size', 'leafHash', 'leafRange', 'nodeHash', 'leafPosition', 'leafOfErased']);

export type LogStatements = Record<keyof typeof SQL, Database.Statement>;

export const logStatements = (db: Database.Database): LogStatements => {
  const out = {} as LogStatements;
  for (const [name, text] of Object.entries(SQL) as Array<[keyof typeof SQL, string]>) {
    const statement = db.prepare(text).safeIntegers(true);
    out[name] = PLUCKED.has(name) ? statement.pluck() : statement;
  }
  return out;
};

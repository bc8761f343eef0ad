import type Database from 'better-sqlite3';
import { laterOf } from '@session-ledger/projections';
import { earlierOf } from '@session-ledger/projections';
import type { Segment } from './segment.js';
import type { SegmentTable } from './segmentTable.js';
import { composeTurns } from './turns.js';

/** The sort key of a conversation without (parsable) activity: after every other. */
export const NO_ACTIVITY = Number.MIN_SAFE_INTEGER;

const msOf = (time: string | null) => {
  const ms = time === null ? Number.NaN : Date.parse(time);
  return Number.isNaN(ms) ? null : ms;
};

/**
 * Follows compression parents to the root, as the lineage fold does (a parent whose continuation
 * names the segment: not one that withdrew it); null for a segment not started.
 */
export const rootOf = (segments: SegmentTable, id: string): string | null => {
  const start = segments.get(id);
  if (!start?.started) return null;
  let node: Segment = start;
  const seen = new Set<string>([id]);
  for (;;) {
    const parent: Segment | undefined = node.link === 'compression' && node.parentId !== null ? segments.get(node.parentId) : undefined;
    if (!parent?.started || parent.continuedIn !== node.id || seen.has(parent.id)) return node.id;
    seen.add(parent.id);
    node = parent;
  }
};

/** The chain from a root to its tip: compression children named by `session.continued`, while started. */
export const chainOf = (segments: SegmentTable, root: Segment): Segment[] => {
  const chain = [root];
  const seen = new Set([root.id]);
  for (let node = root; node.continuedIn !== null; ) {
    const child = segments.get(node.continuedIn);
    if (!child?.started || child.parentId !== node.id || seen.has(child.id)) break;
    chain.push(child);
    seen.add(child.id);
    node = child;
  }
  return chain;
};

const statements = new WeakMap<Database.Database, { put: Database.Statement; remove: Database.Statement }>();

/** Writes the conversation row of `rootId` from its segments' rows, or removes it when it is no root any more. */
export const writeConversation = (db: Database.Database, segments: SegmentTable, rootId: string): void => {
  let sql = statements.get(db);
  if (!sql) {
    sql = {
      put: db.prepare(
        `INSERT INTO catalog (root_id, tip_id, segments, title, source, model, messages, first_activity, last_activity,
           last_ms, live_until, ended, parent_id, link) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (root_id) DO UPDATE SET tip_id = excluded.tip_id, segments = excluded.segments, title = excluded.title,
           source = excluded.source, model = excluded.model, messages = excluded.messages, first_activity = excluded.first_activity,
           last_activity = excluded.last_activity, last_ms = excluded.last_ms, live_until = excluded.live_until,
           ended = excluded.ended, parent_id = excluded.parent_id, link = excluded.link`,
      ),
      remove: db.prepare('DELETE FROM catalog WHERE root_id = ?'),
    };
    statements.set(db, sql);
  }
  const root = segments.get(rootId);
  if (!root?.started || rootOf(segments, rootId) !== rootId) {
    sql.remove.run(rootId);
    return;
  }
  const chain = chainOf(segments, root);
  const tip = chain[chain.length - 1]!;
  let messages = 0;
  let first: string | null = null;
  let last: string | null = null;
  let source: string | null = null;
  let model: string | null = null;
  for (const segment of chain) {
    messages += segment.messages;
    if (segment.firstActivity !== null) first = earlierOf(first, segment.firstActivity);
    if (segment.lastActivity !== null) last = laterOf(last, segment.lastActivity);
    source = segment.source ?? source;
    model = segment.model ?? model;
  }
  const turn = composeTurns(chain.map((segment) => segment.turn));
  const liveUntil = turn && !turn.ended ? msOf(turn.leaseExpiresAt) : null;
  const compression = root.link === 'compression';
  sql.put.run(
    root.id,
    tip.id,
    JSON.stringify(chain.map((segment) => segment.id)),
    root.title,
    source,
    model,
    messages,
    first,
    last,
    msOf(last) ?? NO_ACTIVITY,
    liveUntil,
    tip.ended ? 1 : 0,
    compression ? null : root.parentId,
    compression ? null : root.link,
  );
};

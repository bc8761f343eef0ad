import type Database from 'better-sqlite3';
import * as E from 'fp-ts/lib/Either.js';
import type { RecordedEvent } from '@session-ledger/core';
import { decodeSessionEventE, SESSION_PREFIX, sessionIdOf } from '@session-ledger/events';
import type { ReadModel } from '../readModel.js';
import { rootOf, writeConversation } from './conversation.js';
import { createCatalog, dropCatalog } from './schema.js';
import { applyRecord } from './segment.js';
import { segmentTable, type SegmentTable } from './segmentTable.js';

/**
 * After segments changed: every segment whose root may have moved (the changed ones, and the
 * compression descendants of one that started or left) gets its root again, and every conversation
 * that lost or gained a segment is written again from its segments' rows.
 */
const settle = (db: Database.Database, segments: SegmentTable, changed: Iterable<string>, moved: Iterable<string>, roots: Set<string>) => {
  const touched = new Set(changed);
  const queue = [...moved];
  while (queue.length > 0) {
    for (const child of segments.children(queue.pop()!)) {
      if (touched.has(child)) continue;
      touched.add(child);
      queue.push(child);
    }
  }
  for (const id of touched) {
    const segment = segments.get(id);
    if (!segment) continue;
    const root = rootOf(segments, id);
    if (segment.rootId !== null) roots.add(segment.rootId);
    if (root !== null) roots.add(root);
    if (root !== segment.rootId) segments.edit(id).rootId = root;
  }
  segments.flush();
  for (const root of roots) writeConversation(db, segments, root);
};

/** The session catalog: one row per logical conversation (see schema.ts and README). */
export const catalogReadModel: ReadModel = {
  name: 'catalog',
  // 2: activity never later than the commit time (eventTimeOf, session 26); 3: a compression child
  // belongs to its parent's conversation only while the parent's continuation names it (withdrawals).
  version: 3,
  // Kept inline, the catalog's rows cost a single append 44-62% (docs/benchmarks.md, "catalog:
  // single appendMessage ... with the catalog inline", 0.38-0.56 against a ceiling of >= 0.8); deferred,
  // the append pays nothing and the next list folds in what was written since, in one transaction
  // (the "deferred" row, 1.05). A write is still in the next list either way.
  upkeep: 'deferred',
  create: createCatalog,
  drop: dropCatalog,
  apply(db, events: readonly RecordedEvent[]) {
    const segments = segmentTable(db);
    const changed = new Set<string>();
    /** Segments that started or whose continuation changed: their compression children's roots may move. */
    const moved: string[] = [];
    for (const event of events) {
      if (!event.streamName.startsWith(SESSION_PREFIX)) continue;
      const record = decodeSessionEventE(event);
      if (E.isLeft(record)) continue; // unreadable: left out, as the session list leaves it out
      const segment = segments.edit(record.right.sessionId);
      const { started, continuedIn } = segment;
      applyRecord(segment, record.right);
      if ((!started && segment.started) || continuedIn !== segment.continuedIn) moved.push(segment.id);
      changed.add(segment.id);
    }
    if (changed.size === 0) return;
    segments.flush();
    settle(db, segments, changed, moved, new Set());
  },
  erase(db, stream) {
    const id = sessionIdOf(stream);
    if (id === null) return;
    const segments = segmentTable(db);
    const gone = segments.get(id);
    if (!gone) return;
    const roots = new Set<string>();
    if (gone.rootId !== null) roots.add(gone.rootId);
    roots.add(id);
    const children = segments.children(id);
    segments.remove(id);
    settle(db, segments, children, children, roots);
  },
};

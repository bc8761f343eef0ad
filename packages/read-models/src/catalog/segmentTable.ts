import type Database from 'better-sqlite3';
import { emptySegment, type Segment } from './segment.js';
import { NO_TURNS, type TurnEffect } from './turns.js';

interface Row {
  id: string;
  started: number;
  parent_id: string | null;
  link: string | null;
  continued_in: string | null;
  title: string | null;
  source: string | null;
  model: string | null;
  messages: number;
  first_activity: string | null;
  last_activity: string | null;
  ended: number;
  turn: string | null;
  root_id: string | null;
}

const toSegment = (row: Row): Segment => ({
  id: row.id,
  started: row.started !== 0,
  parentId: row.parent_id,
  link: row.link,
  continuedIn: row.continued_in,
  title: row.title,
  source: row.source,
  model: row.model,
  messages: row.messages,
  firstActivity: row.first_activity,
  lastActivity: row.last_activity,
  ended: row.ended !== 0,
  turn: row.turn === null ? NO_TURNS : (JSON.parse(row.turn) as TurnEffect),
  rootId: row.root_id,
});

const turnText = (turn: TurnEffect) => (turn.start === null && Object.keys(turn.pre).length === 0 ? null : JSON.stringify(turn));

const statements = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

const prepare = (db: Database.Database) => ({
  get: db.prepare('SELECT * FROM catalog_segments WHERE id = ?'),
  put: db.prepare(
    // An upsert, not INSERT OR REPLACE: an update in place leaves the indexes alone unless root or parent moved.
    `INSERT INTO catalog_segments (id, started, parent_id, link, continued_in, title, source, model, messages,
       first_activity, last_activity, ended, turn, root_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET started = excluded.started, parent_id = excluded.parent_id, link = excluded.link,
       continued_in = excluded.continued_in, title = excluded.title, source = excluded.source, model = excluded.model,
       messages = excluded.messages, first_activity = excluded.first_activity, last_activity = excluded.last_activity,
       ended = excluded.ended, turn = excluded.turn, root_id = excluded.root_id`,
  ),
  remove: db.prepare('DELETE FROM catalog_segments WHERE id = ?'),
  children: db.prepare('SELECT id FROM catalog_segments WHERE parent_id = ?').pluck(),
});

/**
 * The segment rows one apply or erase works on, read through a cache so that a batch of events
 * touches each row once: `flush` writes the changed ones back.
 */
export const segmentTable = (db: Database.Database) => {
  let sql = statements.get(db);
  if (!sql) statements.set(db, (sql = prepare(db)));
  const s = sql;
  const cache = new Map<string, Segment | undefined>();
  const changed = new Set<string>();
  const get = (id: string): Segment | undefined => {
    if (cache.has(id)) return cache.get(id);
    const row = s.get.get(id) as Row | undefined;
    const segment = row ? toSegment(row) : undefined;
    cache.set(id, segment);
    return segment;
  };
  return {
    get,
    /** The segment's row, created empty if it has none yet; the caller changes it in place. */
    edit(id: string): Segment {
      let segment = get(id);
      if (!segment) cache.set(id, (segment = emptySegment(id)));
      changed.add(id);
      return segment;
    },
    remove(id: string): void {
      s.remove.run(id);
      cache.set(id, undefined);
      changed.delete(id);
    },
    /** Segments started as children of `id` (any link). */
    children: (id: string): string[] => s.children.all(id) as string[],
    flush(): void {
      for (const id of changed) {
        const g = cache.get(id)!;
        s.put.run(g.id, g.started ? 1 : 0, g.parentId, g.link, g.continuedIn, g.title, g.source, g.model, g.messages, g.firstActivity, g.lastActivity, g.ended ? 1 : 0, turnText(g.turn), g.rootId);
      }
      changed.clear();
    },
  };
};

export type SegmentTable = ReturnType<typeof segmentTable>;

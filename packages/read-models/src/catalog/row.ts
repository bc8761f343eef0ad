import type { ChildLink } from '@session-ledger/events';

/** One logical conversation in the catalog: the session list's row plus source, model and first activity. */
export interface CatalogRow {
  rootId: string;
  tipId: string;
  /** Segment ids, root to tip. */
  segments: string[];
  title?: string;
  source: string | null;
  model: string | null;
  messages: number;
  firstActivity: string | null;
  lastActivity: string | null;
  /** A turn holds the conversation at the time of the read (its lease had not expired). */
  live: boolean;
  /** The tip has ended. */
  ended: boolean;
  parentId: string | null;
  link: ChildLink | null;
}

export interface ConversationRow {
  root_id: string;
  tip_id: string;
  segments: string;
  title: string | null;
  source: string | null;
  model: string | null;
  messages: number;
  first_activity: string | null;
  last_activity: string | null;
  last_ms: number;
  live_until: number | null;
  ended: number;
  parent_id: string | null;
  link: string | null;
}

/** A stored row as the API gives it; liveness judged at `nowMs` from the stored lease expiry. */
export const toCatalogRow = (row: ConversationRow, nowMs: number): CatalogRow => {
  const out: CatalogRow = {
    rootId: row.root_id,
    tipId: row.tip_id,
    segments: JSON.parse(row.segments) as string[],
    source: row.source,
    model: row.model,
    messages: row.messages,
    firstActivity: row.first_activity,
    lastActivity: row.last_activity,
    live: row.live_until !== null && nowMs < row.live_until,
    ended: row.ended !== 0,
    parentId: row.parent_id,
    link: row.link as ChildLink | null,
  };
  if (row.title !== null) out.title = row.title;
  return out;
};

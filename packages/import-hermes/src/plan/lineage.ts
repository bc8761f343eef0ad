import type { HermesSession } from '../model.js';

/** How a session relates to its `parent_session_id`. */
export type ChildKind = 'root' | 'compression' | 'branch' | 'delegate' | 'reset' | 'child';

/** End reasons after which a child riding the parent's session_key is a reset continuation (Hermes' `_RESET_END_REASONS`). */
export const RESET_END_REASONS = new Set(['session_reset', 'session_switch', 'idle', 'daily', 'suspended', 'resume_pending_expired']);

const marker = (session: HermesSession, key: string): string | null => {
  const value = session.modelConfig?.[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
};

const sessionKey = (session: HermesSession): string | null => {
  const value = session.extra.session_key;
  return typeof value === 'string' && value.length > 0 ? value : null;
};

/**
 * Hermes' lineage rules: creation markers in model_config win (`_branched_from`, `_delegate_from`,
 * `_reset_from`, bound to the parent id); a `subagent` or `tool` source is never a continuation; a parent
 * that ended with `compression` makes a compression segment; `branched` a branch; a reset end reason with
 * the same session_key a reset. A parent id that names no session row leaves the session a root.
 */
export const childKind = (session: HermesSession, parent: HermesSession | undefined): ChildKind => {
  if (!session.parentSessionId || !parent) return 'root';
  if (marker(session, '_branched_from') === parent.id) return 'branch';
  if (marker(session, '_delegate_from') === parent.id || session.source === 'subagent') return 'delegate';
  if (marker(session, '_reset_from') === parent.id) return 'reset';
  if (session.source === 'tool') return 'child';
  if (parent.endReason === 'compression') return 'compression';
  if (parent.endReason === 'branched') return 'branch';
  if (parent.endReason && RESET_END_REASONS.has(parent.endReason) && sessionKey(session) === sessionKey(parent)) return 'reset';
  return 'child';
};

/** `sessions.last_activity_at` (schema 24: the agent's activity heartbeat), when the row has one. */
export const activityHeartbeat = (session: HermesSession): number => {
  const value = session.extra.last_activity_at;
  return typeof value === 'number' && Number.isFinite(value) ? value : -Infinity;
};

export interface Conversation {
  /** The first segment's id: the id a user resumes. */
  rootId: string;
  /** Compression segments, root first, in chain order. */
  segments: HermesSession[];
}

/** Groups sessions into logical conversations: a root and its chain of compression segments. */
export const conversations = (sessions: HermesSession[]): Conversation[] => {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const continuations = new Map<string, HermesSession[]>();
  const roots: HermesSession[] = [];
  for (const session of sessions) {
    const parent = session.parentSessionId ? byId.get(session.parentSessionId) : undefined;
    if (childKind(session, parent) === 'compression') {
      const list = continuations.get(parent!.id) ?? [];
      list.push(session);
      continuations.set(parent!.id, list);
    } else roots.push(session);
  }
  const visited = new Set<string>();
  const chain = (root: HermesSession): Conversation => {
    const segments: HermesSession[] = [];
    const visit = (session: HermesSession) => {
      if (visited.has(session.id)) return;
      visited.add(session.id);
      segments.push(session);
      for (const next of continuations.get(session.id) ?? []) visit(next);
    };
    visit(root);
    return { rootId: root.id, segments };
  };
  const out = roots.map(chain);
  // A parent cycle leaves sessions no root reaches; each starts its own conversation rather than vanish.
  for (const session of sessions) if (!visited.has(session.id)) out.push(chain(session));
  return out;
};

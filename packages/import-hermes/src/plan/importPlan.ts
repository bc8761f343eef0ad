
import { isNewId, sessionStream } from '@session-ledger/events';
import type { HermesMessage, HermesSession, HermesSnapshot } from '../model.js';
import { historySteps } from './historySteps.js';
import { compressionSummaryId, messageIdOf } from './ids.js';
import { activityHeartbeat, childKind, type ChildKind } from './lineage.js';
import type { LedgerLink, PlanStep } from './steps.js';

/** Something the import left out, and why. */
export interface Skipped {
  session?: string;
  rows?: number;
  reason: string;
  /** Left out as Hermes itself leaves it out (rows of no session, which Hermes never shows): not data the ledger lacks. */
  intended?: true;
}

export interface SessionImport {
  session: HermesSession;
  stream: string;
  rows: HermesMessage[];
  steps: PlanStep[];
  hermesKind: ChildKind;
  link: LedgerLink | null;
  rootId: string;
}

export interface ImportPlan {
  /** Parents before children. */
  sessions: SessionImport[];
  skipped: Skipped[];
}

/**
 * A reset child whose session row names the session it reset (Hermes from schema 26) links to it:
 * Hermes shows that conversation above the new one, and so does the ledger's display.
 */
const LINKS: Partial<Record<ChildKind, LedgerLink>> = { compression: 'compression', branch: 'branch', delegate: 'delegation', reset: 'reset' };

type Timed = { step: PlanStep; at: number | null };

/**
 * Hermes' order for picking the continuation it resumes into (`get_compression_tip`): a child that
 * itself continued by compression, then one still open, then the one active last (the newer of its
 * newest row and its activity heartbeat, else its start), then the one started last, then the greater
 * id. Negative: `a` comes first.
 */
const tipOrder = (snapshot: HermesSnapshot) => {
  const rank = (s: HermesSession) => (s.endReason === 'compression' ? 0 : s.endedAt === null ? 1 : 2);
  const lastWrite = (s: HermesSession) => {
    let max = activityHeartbeat(s);
    for (const row of snapshot.messages.get(s.id) ?? []) if (row.timestamp !== null && row.timestamp > max) max = row.timestamp;
    return max === -Infinity ? s.startedAt ?? -Infinity : max;
  };
  return (a: HermesSession, b: HermesSession): number =>
    rank(a) - rank(b) ||
    lastWrite(b) - lastWrite(a) ||
    (b.startedAt ?? -Infinity) - (a.startedAt ?? -Infinity) ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
};

/**
 * Child links and the end go before the first row written after them (or at the end), so a newer
 * copy of the file, with rows written since, extends the same steps.
 */
const withTimed = (steps: PlanStep[], timed: Timed[]): PlanStep[] => {
  const queue = [...timed].sort((a, b) => (a.at ?? -Infinity) - (b.at ?? -Infinity));
  const out: PlanStep[] = [];
  for (const step of steps) {
    if (step.kind === 'message' && step.row.timestamp !== null) {
      while (queue.length > 0 && (queue[0]!.at ?? -Infinity) < step.row.timestamp) out.push(queue.shift()!.step);
    }
    out.push(step);
  }
  for (const item of queue) out.push(item.step);
  return out;
};

const isDotSegment = (id: string): boolean => id === '.' || id === '..';

/** Decides every session's link, root and steps; pure. */
export const buildImportPlan = (snapshot: HermesSnapshot): ImportPlan => {
  const skipped: Skipped[] = [];
  const byId = new Map(snapshot.sessions.map((s) => [s.id, s]));
  const kept = snapshot.sessions.filter((s) => {
    if (isNewId(s.id)) return true;
    // "." and "..": no URL can name them (checkNewId), so no page or client could open, export or delete the session.
    const reason = isDotSegment(s.id) ? 'session id "." or ".." cannot be addressed (URLs resolve it away)' : 'session id is not a valid ledger id (letters, digits, _ - . :)';
    skipped.push({ session: s.id, rows: snapshot.messages.get(s.id)?.length ?? 0, reason });
    return false;
  });
  const keptIds = new Set(kept.map((s) => s.id));
  for (const [sessionId, rows] of snapshot.messages) {
    if (!byId.has(sessionId)) skipped.push({ session: sessionId, rows: rows.length, reason: 'messages whose session row is missing', intended: true });
  }
  // Of several compression children of one parent (two paths compressed it: the gateway race), the one
  // Hermes resumes into continues the conversation; the others start their own.
  const order = tipOrder(snapshot);
  const continuationChoice = new Map<string, HermesSession>();
  for (const session of kept) {
    const parentId = session.parentSessionId;
    const parent = parentId && parentId !== session.id && keptIds.has(parentId) ? byId.get(parentId) : undefined;
    if (!parent || childKind(session, parent) !== 'compression') continue;
    const best = continuationChoice.get(parent.id);
    if (!best || order(session, best) < 0) continuationChoice.set(parent.id, session);
  }
  const decided = new Map<string, { kind: ChildKind; link: LedgerLink | null; parentId: string | null; rootId: string }>();
  const continuationOf = new Map<string, string>();
  const children = new Map<string, Array<{ id: string; link: Exclude<LedgerLink, 'compression'>; at: number | null }>>();
  for (const session of kept) {
    // A parent must be imported and placed first: a missing, skipped, self or cyclic parent leaves a root.
    const parentId = session.parentSessionId;
    const parent = parentId && parentId !== session.id && keptIds.has(parentId) && decided.has(parentId) ? byId.get(parentId) : undefined;
    const kind = childKind(session, parent);
    let link = LINKS[kind] ?? null;
    if (link === 'compression' && (continuationOf.has(parent!.id) || continuationChoice.get(parent!.id) !== session)) link = null;
    const rootId = link === 'compression' ? decided.get(parent!.id)?.rootId ?? parent!.id : session.id;
    decided.set(session.id, { kind, link, parentId: link ? parent!.id : null, rootId });
    if (link === 'compression') continuationOf.set(parent!.id, session.id);
    else if (link) children.set(parent!.id, [...(children.get(parent!.id) ?? []), { id: session.id, link, at: session.startedAt }]);
  }
  const summaryOf = (childId: string): { id: string; row: HermesMessage | null; inline?: boolean } => {
    const rows = snapshot.messages.get(childId) ?? [];
    const first = rows[0];
    if (first?.summary) return { id: messageIdOf(first.rowId), row: first };
    // Without the flag column: the first row carrying the summary text (head rows may precede it).
    const carrier = rows.find((row) => row.summaryText && row.state !== 'rewound');
    if (carrier) return { id: messageIdOf(carrier.rowId), row: carrier, inline: true };
    return { id: compressionSummaryId(childId), row: null };
  };
  const sessions = kept.map((session): SessionImport => {
    const rows = snapshot.messages.get(session.id) ?? [];
    const d = decided.get(session.id)!;
    const summary = d.link === 'compression' ? summaryOf(session.id) : undefined;
    const start: PlanStep = { kind: 'start', session, link: d.link, parentId: d.parentId, rootId: d.rootId, hermesKind: d.kind, ...(summary ? { summary } : {}) };
    const timed: Timed[] = (children.get(session.id) ?? []).map((child) => ({
      step: { kind: 'child', childId: child.id, link: child.link, at: child.at },
      at: child.at,
    }));
    const childId = continuationOf.get(session.id);
    const tail: PlanStep[] = [];
    if (childId) {
      const child = summaryOf(childId);
      const at = session.endedAt ?? byId.get(childId)?.startedAt ?? null;
      tail.push({ kind: 'continued', childId, summaryId: child.id, summaryRow: child.row, at });
    } else if (session.endedAt !== null) {
      timed.push({ step: { kind: 'end', endedAt: session.endedAt, endReason: session.endReason }, at: session.endedAt });
    }
    const history = withTimed(historySteps(session.id, rows, summary?.inline ? null : summary?.row ?? null), timed);
    return {
      session,
      stream: sessionStream(session.id),
      rows,
      steps: [start, ...history, ...tail],
      hermesKind: d.kind,
      link: d.link,
      rootId: d.rootId,
    };
  });
  return { sessions, skipped };
};

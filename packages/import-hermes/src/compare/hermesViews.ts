import { canonicalJson, nestsDeeperThan, type JsonValue } from '@session-ledger/core';
import type { HermesMessage, HermesSession, HermesSnapshot } from '../model.js';
import { isReviewHarness, PYTHON_JSON_DEPTH, readContent, SESSION_META } from '../mapping/hermesRead.js';
import { activityHeartbeat, RESET_END_REASONS } from '../plan/lineage.js';
import { codexInterim, repairAlternation, VERIFICATION_CANDIDATE } from './hermesModel.js';
import type { HermesShaped } from './hermesShape.js';

/**
 * What Hermes (schema 26, NousResearch/hermes-agent e89532d) shows for a conversation, computed from
 * a snapshot of its state.db by Hermes' own rules, so `--verify` needs no Hermes: the resume target
 * (`resolve_resume_session_id`), the display history (`get_messages_as_conversation` with ancestors)
 * and the model history (without ancestors, then the alternation repair). Checked against Hermes'
 * own output by test/import-hermes/hermesTruth.int.test.ts. Not ported: the replay cleanup of tool
 * calls interrupted by a crash (`sanitize_replay_history`).
 */
export interface HermesViews {
  root: string;
  resumeTarget: string;
  display: HermesShaped[];
  model: HermesShaped[];
}

const marked = (session: HermesSession | undefined, key: string): boolean => {
  const value = session?.modelConfig?.[key];
  return value !== undefined && value !== null;
};

/** Not a branch, delegate or tool child: a child Hermes may continue a compression into. */
const followable = (child: HermesSession): boolean =>
  !marked(child, '_branched_from') && !marked(child, '_delegate_from') && child.source !== 'tool';

const sessionKey = (session: HermesSession | undefined): string | null => {
  const value = session?.extra.session_key;
  return typeof value === 'string' && value !== '' ? value : null;
};

/**
 * A reset continuation (schema 26): marked `_reset_from`, or, before the marker, riding the exact
 * non-empty session_key of a parent that ended at a reset. Resuming the parent never walks into it.
 */
const resetChild = (child: HermesSession, parent: HermesSession | undefined): boolean =>
  marked(child, '_reset_from') ||
  (parent?.endReason != null && RESET_END_REASONS.has(parent.endReason) && sessionKey(child) !== null && sessionKey(child) === sessionKey(parent));

const newestFirst = (a: HermesSession, b: HermesSession): number =>
  (b.startedAt ?? -Infinity) - (a.startedAt ?? -Infinity) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export const createHermesReader = (snapshot: HermesSnapshot) => {
  const byId = new Map(snapshot.sessions.map((s) => [s.id, s]));
  const children = new Map<string, HermesSession[]>();
  for (const s of snapshot.sessions) {
    if (s.parentSessionId !== null) children.set(s.parentSessionId, [...(children.get(s.parentSessionId) ?? []), s]);
  }
  const rowsOf = (id: string): HermesMessage[] => snapshot.messages.get(id) ?? [];
  const lastWrite = (s: HermesSession): number => {
    let max = activityHeartbeat(s);
    for (const row of rowsOf(s.id)) if (row.timestamp !== null && row.timestamp > max) max = row.timestamp;
    return max === -Infinity ? s.startedAt ?? -Infinity : max;
  };
  const rank = (s: HermesSession): number => (s.endReason === 'compression' ? 0 : s.endedAt === null ? 1 : 2);

  /** `get_compression_tip`: continuing children first, then live ones, then the last active (rows or heartbeat). */
  const compressionTip = (id: string): string => {
    const seen = new Set([id]);
    let current = id;
    for (let i = 0; i < 100; i += 1) {
      if (byId.get(current)?.endReason !== 'compression') return current;
      const next = (children.get(current) ?? [])
        .filter(followable)
        .sort((a, b) => rank(a) - rank(b) || lastWrite(b) - lastWrite(a) || newestFirst(a, b))[0];
      if (!next || seen.has(next.id)) return current;
      seen.add(next.id);
      current = next.id;
    }
    return current;
  };

  /** `resolve_resume_session_id`: from the tip, down the newest children (not resets), to the last one holding rows. */
  const resumeTarget = (id: string): string => {
    const start = compressionTip(id);
    const seen = new Set([start]);
    let current = start;
    let best: string | null = null;
    for (let i = 0; i < 32; i += 1) {
      if (rowsOf(current).length > 0) best = current;
      const next = (children.get(current) ?? []).filter((c) => followable(c) && !resetChild(c, byId.get(current))).sort(newestFirst)[0];
      if (!next || seen.has(next.id)) break;
      seen.add(next.id);
      current = next.id;
    }
    return best ?? start;
  };

  /** `_session_lineage_root_to_tip`: parent pointers up from the target, root first. */
  const lineage = (id: string): string[] => {
    const chain: string[] = [];
    const seen = new Set<string>();
    for (let current: string | null = id, i = 0; current && !seen.has(current) && i < 100; i += 1) {
      seen.add(current);
      chain.push(current);
      const session = byId.get(current);
      if (!session) break;
      current = session.parentSessionId;
    }
    return chain.reverse();
  };

  return { compressionTip, resumeTarget, lineage, rowsOf, byId };
};

const shaped = (row: HermesMessage): HermesShaped => {
  const read = readContent(row.role, row.content, row.toolCalls);
  let calls: JsonValue = [];
  // As Hermes reads them (Python's json.loads, which keeps a "__proto__" key and stops at its recursion
  // limit: deeper text reads as no calls).
  if (row.toolCalls && !nestsDeeperThan(row.toolCalls, PYTHON_JSON_DEPTH)) {
    try {
      calls = JSON.parse(row.toolCalls) as JsonValue;
    } catch {
      calls = [];
    }
  }
  return {
    role: row.role,
    content: read.parts !== undefined ? read.parts : read.content,
    toolCalls: Array.isArray(calls) && calls.length > 0 ? canonicalJson(calls) : null,
    toolCallId: row.toolCallId || null,
    toolName: row.toolName || null,
  };
};

/** Hermes' background-review strip: each harness prompt and the assistant reply right after it. */
const stripHarness = (items: HermesShaped[]): HermesShaped[] => {
  const out: HermesShaped[] = [];
  let skipNextAssistant = false;
  let previousWasHarness = false;
  for (const row of items) {
    if (isReviewHarness(row.role, typeof row.content === 'string' ? row.content : null)) {
      skipNextAssistant = !previousWasHarness;
      previousWasHarness = true;
      continue;
    }
    if (skipNextAssistant) {
      skipNextAssistant = false;
      if (row.role === 'assistant') {
        previousWasHarness = false;
        continue;
      }
    }
    previousWasHarness = false;
    out.push(row);
  }
  return out;
};

/** With ancestors: a user message repeating an earlier one with no answer between them is shown once. */
const dropReplayedUsers = (items: HermesShaped[]): HermesShaped[] => {
  const out: HermesShaped[] = [];
  for (const item of items) {
    if (item.role === 'user' && typeof item.content === 'string' && item.content !== '') {
      let replayed = false;
      for (let i = out.length - 1; i >= 0; i -= 1) {
        const prev = out[i]!;
        if (prev.role === 'user' && prev.content === item.content) {
          replayed = true;
          break;
        }
        if (prev.role === 'assistant' && (prev.content || prev.toolCalls)) break;
      }
      if (replayed) continue;
    }
    out.push(item);
  }
  return out;
};

/** Active rows as Hermes' CLI and gateway take them: without the gateway's transcript header, which both drop. */
const activeRows = (reader: ReturnType<typeof createHermesReader>, ids: string[]): HermesMessage[] =>
  ids
    .flatMap((id) => reader.rowsOf(id))
    .filter((row) => row.state === 'active' && row.role !== SESSION_META)
    .sort((a, b) => a.rowId - b.rowId);

const ownConversation = (session: HermesSession | undefined): boolean => marked(session, '_branched_from') || marked(session, '_delegate_from');

export interface HermesViewOptions {
  /**
   * The display read from the nearest branch or delegate in the lineage, as the ledger shows it: a
   * conversation of its own, its copy of the parent's history once. Hermes, resuming a branch it
   * compressed later, lands in the unmarked compression child and reads the whole parent chain, the
   * parent's rows above the branch's copy of them (outside test, session 31, helper-89 F4). `--verify`
   * compares with this reading; without it, the views are Hermes' own (hermesTruth.int).
   */
  fromOwnConversation?: boolean;
}

/** What Hermes shows and sends for the conversation a user resumes by `root`. */
export const hermesViews = (reader: ReturnType<typeof createHermesReader>, root: string, options: HermesViewOptions = {}): HermesViews => {
  const target = reader.resumeTarget(root);
  const ownOnly = ownConversation(reader.byId.get(target));
  const lineage = ownOnly ? [target] : reader.lineage(target);
  const from = options.fromOwnConversation ? lineage.findLastIndex((id) => ownConversation(reader.byId.get(id))) : -1;
  const displayIds = lineage.slice(Math.max(from, 0));
  // Hermes drops replayed user rows while it reads (with ancestors), then strips the harness rows.
  const displayed = activeRows(reader, displayIds).map(shaped);
  const display = stripHarness(ownOnly ? displayed : dropReplayedUsers(displayed));
  const candidates = new Set<HermesShaped>();
  const interims = new Set<HermesShaped>();
  const modelRows = activeRows(reader, [target]).map((row) => {
    const item = shaped(row);
    if (row.finishReason !== null && VERIFICATION_CANDIDATE.has(row.finishReason)) candidates.add(item);
    if (codexInterim(row.finishReason, row.extra)) interims.add(item);
    return item;
  });
  const model = repairAlternation(stripHarness(modelRows), { candidates, interims });
  return { root, resumeTarget: target, display, model };
};

import { isLedgerError, type EventStore } from '@session-ledger/core';
import { loadConversation } from '@session-ledger/sessions';
import { firstShapedDifference } from '../compare/compareWithHermes.js';
import { activeAsHermes, displayAsHermes } from '../compare/hermesShape.js';
import { createHermesReader, hermesViews } from '../compare/hermesViews.js';
import type { HermesSnapshot } from '../model.js';
import { buildImportPlan, type ImportPlan } from '../plan/importPlan.js';
import type { HermesSource } from '../source/hermesSource.js';
import { openHermesSource } from '../source/openHermesSource.js';
import { snapshotSource } from '../source/snapshotSource.js';
import { digestSide, firstDifference } from './items.js';
import { activeOfSourceSegments, ledgerConversation, orphanedSegments } from './ledgerSide.js';
import { sourceConversations } from './sourceSide.js';

export interface CountDigest {
  count: number;
  digest: string;
}

export interface VerifyDifference {
  conversation: string;
  /**
   * `messages`, `summaries`: the source's rows against the ledger's display view (count and digest);
   * `display`, `active`: what Hermes shows and sends the model on resume against the ledger's views,
   * under the normalisation of compareWithHermes.
   */
  kind: 'missing' | 'unreadable' | 'messages' | 'summaries' | 'display' | 'active';
  source?: CountDigest;
  ledger?: CountDigest;
  detail: string;
}

export interface VerifyReport {
  conversations: number;
  matched: number;
  /** Whether the views were also compared with Hermes' read rules (files of schema HERMES_RULES_SCHEMA or older). */
  hermesRules: boolean;
  differences: VerifyDifference[];
}

export interface VerifyOptions {
  busyTimeoutMs?: number;
  /** Verify against this snapshot (the one an import used) instead of reading the file again. */
  snapshot?: HermesSnapshot;
  /** Verify against this open source (the one an import used, still in its read transaction). */
  source?: HermesSource;
}

/** The highest schema whose read rules are proven against Hermes' own code (fixtures/hermes). */
export const HERMES_RULES_SCHEMA = 26;

/** Conversations as Hermes lists them: every session but compression continuations. */
const hermesRoots = (plan: ImportPlan): string[] => plan.sessions.filter((s) => s.hermesKind !== 'compression').map((s) => s.session.id);

const compareRules = async (store: EventStore, snapshot: HermesSnapshot, plan: ImportPlan, skip: Set<string>, segments: Map<string, Set<string>>): Promise<VerifyDifference[]> => {
  const reader = createHermesReader(snapshot);
  const out: VerifyDifference[] = [];
  for (const root of hermesRoots(plan)) {
    if (skip.has(root)) continue;
    const hermes = hermesViews(reader, root, { fromOwnConversation: true });
    // A segment whose parent Hermes deleted: Hermes shows it from there on, the ledger after the parent it keeps.
    // A segment whose compression child Hermes deleted: Hermes resumes it, the ledger the child it keeps.
    // Only a segment the file keeps ended by a compression, with no child, can be one (no read otherwise).
    const childless = plan.sessions.some((item) => item.rootId === root && item.steps.some((step) => step.kind === 'end' && step.endReason === 'compression'));
    const continued = childless ? await activeOfSourceSegments(store, root, segments.get(root)) : undefined;
    const own = continued ? segments.get(root) : await orphanedSegments(store, root, segments.get(root));
    const shown = await loadConversation(store, root, { view: 'display' });
    const display = firstShapedDifference(hermes.display, displayAsHermes(own ? { ...shown, messages: shown.messages.filter((m) => own.has(m.sessionId)) } : shown));
    const active = firstShapedDifference(hermes.model, activeAsHermes(continued ?? (await loadConversation(store, root, { view: 'active' }))));
    if (display !== null) out.push({ conversation: root, kind: 'display', detail: `Hermes shows other messages: ${display}` });
    if (active !== null) out.push({ conversation: root, kind: 'active', detail: `Hermes sends the model other messages: ${active}` });
  }
  return out;
};

/** One lineage unit: its conversations' rows against the ledger's display view, then Hermes' rules. */
const verifyUnit = async (store: EventStore, unit: HermesSnapshot, hermesRules: boolean) => {
  const plan = buildImportPlan(unit);
  const source = sourceConversations(unit, plan);
  const segments = new Map<string, Set<string>>();
  for (const item of plan.sessions) segments.set(item.rootId, (segments.get(item.rootId) ?? new Set()).add(item.session.id));
  const differences: VerifyDifference[] = [];
  for (const [conversation, side] of source) {
    let ledger;
    try {
      ledger = await ledgerConversation(store, conversation, segments.get(conversation), side);
    } catch (error) {
      if (!isLedgerError(error)) throw error;
      differences.push({ conversation, kind: 'unreadable', detail: error.message });
      continue;
    }
    if (ledger === null) {
      differences.push({ conversation, kind: 'missing', source: digestSide(side).messages, detail: 'not in the ledger' });
      continue;
    }
    const [s, l] = [digestSide(side), digestSide(ledger)];
    if (s.messages.digest !== l.messages.digest) {
      const detail = firstDifference(side.messages, ledger.messages) ?? 'digests differ';
      differences.push({ conversation, kind: 'messages', source: s.messages, ledger: l.messages, detail });
    }
    if (s.summaries.digest !== l.summaries.digest) {
      const detail = firstDifference(side.summaries, ledger.summaries) ?? 'digests differ';
      differences.push({ conversation, kind: 'summaries', source: s.summaries, ledger: l.summaries, detail });
    }
  }
  const unusable = new Set(differences.filter((d) => d.kind === 'missing' || d.kind === 'unreadable').map((d) => d.conversation));
  const rules = hermesRules ? await compareRules(store, unit, plan, unusable, segments) : [];
  const failed = new Set(differences.concat(rules).map((d) => d.conversation));
  return { conversations: source.size, matched: source.size - [...failed].filter((c) => source.has(c)).length, differences, rules };
};

/**
 * For each logical conversation of the source, compares the count and content digest of its display
 * messages (and, apart, of its summaries) with the ledger's display view, and (schema HERMES_RULES_SCHEMA or older)
 * what Hermes shows and sends the model with the ledger's views. The source is read one lineage unit
 * at a time, in one snapshot. Every difference is listed.
 */
export const verifyHermes = async (store: EventStore, path: string, options: VerifyOptions = {}): Promise<VerifyReport> => {
  const given = options.source ?? (options.snapshot ? snapshotSource(options.snapshot) : null);
  const opened = given === null ? openHermesSource(path, options) : null;
  const source = given ?? opened!;
  try {
    const version = source.schema.version;
    const hermesRules = version === null || version <= HERMES_RULES_SCHEMA;
    const report: VerifyReport = { conversations: 0, matched: 0, hermesRules, differences: [] };
    const rules: VerifyDifference[] = [];
    for (const unit of source.units()) {
      const checked = await verifyUnit(store, unit, hermesRules);
      report.conversations += checked.conversations;
      report.matched += checked.matched;
      report.differences.push(...checked.differences);
      rules.push(...checked.rules);
    }
    report.differences.push(...rules);
    return report;
  } finally {
    opened?.close();
  }
};

export const formatVerify = (report: VerifyReport): string =>
  [
    `verified ${report.conversations} conversations: ${report.matched} match, ${report.conversations - report.matched} differ` +
      (report.hermesRules ? ' (rows, and what Hermes shows and sends the model)' : ` (rows; Hermes read rules known up to schema ${HERMES_RULES_SCHEMA})`),
    ...report.differences.map((d) => {
      const counts = d.source && d.ledger ? ` (source ${d.source.count}, ledger ${d.ledger.count})` : '';
      return `${d.conversation}: ${d.kind}${counts}: ${d.detail}`;
    }),
  ].join('\n');

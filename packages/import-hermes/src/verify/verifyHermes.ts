import { isLedgerError, type EventStore } from '@session-ledger/core';
import { buildImportPlan } from '../plan/importPlan.js';
import { readSnapshot } from '../source/readSnapshot.js';
import { digestSide, firstDifference } from './items.js';
import { ledgerConversation } from './ledgerSide.js';
import { sourceConversations } from './sourceSide.js';

export interface CountDigest {
  count: number;
  digest: string;
}

export interface VerifyDifference {
  conversation: string;
  kind: 'missing' | 'unreadable' | 'messages' | 'summaries';
  source?: CountDigest;
  ledger?: CountDigest;
  detail: string;
}

export interface VerifyReport {
  conversations: number;
  matched: number;
  differences: VerifyDifference[];
}

/**
 * For each logical conversation of the source, compares the count and content digest of its display
 * messages (and, apart, of its summaries) with the ledger's display view. Every difference is listed.
 */
export const verifyHermes = async (store: EventStore, path: string, options: { busyTimeoutMs?: number } = {}): Promise<VerifyReport> => {
  const snapshot = readSnapshot(path, options);
  const source = sourceConversations(snapshot, buildImportPlan(snapshot));
  const differences: VerifyDifference[] = [];
  for (const [conversation, side] of source) {
    let ledger;
    try {
      ledger = await ledgerConversation(store, conversation);
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
  const failed = new Set(differences.map((d) => d.conversation));
  return { conversations: source.size, matched: source.size - failed.size, differences };
};

export const formatVerify = (report: VerifyReport): string =>
  [
    `verified ${report.conversations} conversations: ${report.matched} match, ${report.conversations - report.matched} differ`,
    ...report.differences.map((d) => {
      const counts = d.source && d.ledger ? ` (source ${d.source.count}, ledger ${d.ledger.count})` : '';
      return `${d.conversation}: ${d.kind}${counts}: ${d.detail}`;
    }),
  ].join('\n');

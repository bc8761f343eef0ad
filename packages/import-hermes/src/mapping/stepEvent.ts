import { canonicalJson, deterministicId, sha256Hex, type JsonObject } from '@session-ledger/core';
import { encodeSessionEvent, type SessionEvent } from '@session-ledger/events';
import type { HermesMessage, HermesSession } from '../model.js';
import type { PlanStep } from '../plan/steps.js';
import { readContent } from './hermesRead.js';
import { hermesRowExtra, messageData } from './messageData.js';
import { isoOf } from './time.js';

/** An event ready for the ledger, with the deterministic id that makes a repeated import write nothing. */
export interface PlannedEvent {
  id: string;
  type: string;
  data: SessionEvent['data'];
  metadata: JsonObject;
  /** For reports: which Hermes rows the event carries. */
  rowIds: number[];
}

/** Whether an object has an own enumerable key (without an array of its keys). */
const hasKeys = (value: JsonObject): boolean => {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
};

/** A summary's text as Hermes reads its row (empty without a row). */
const summaryText = (row: HermesMessage | null): string => (row ? readContent(row.role, row.content).content ?? '' : '');

const fingerprint = (value: unknown): string => sha256Hex(canonicalJson(value)).slice(0, 32);

/** Plain JSON of an array of scalars is already canonical. */
const rowFingerprint = (row: HermesMessage) =>
  sha256Hex(JSON.stringify([row.role, row.content, row.toolCalls, row.toolCallId, row.toolName, row.timestamp])).slice(0, 32);

const startData = (step: Extract<PlanStep, { kind: 'start' }>): SessionEvent => {
  const s: HermesSession = step.session;
  const hermes: JsonObject = { kind: step.hermesKind, startedAt: s.startedAt, endedAt: s.endedAt, endReason: s.endReason };
  if (s.parentSessionId !== null) hermes.parentSessionId = s.parentSessionId;
  if (Object.keys(s.extra).length > 0) hermes.columns = s.extra;
  return {
    type: 'session.started',
    data: {
      sessionId: s.id,
      rootId: step.rootId,
      parentId: step.parentId,
      link: step.link,
      startedAt: isoOf(s.startedAt),
      ...(step.summary ? { summary: summaryText(step.summary.row), summaryId: step.summary.id } : {}),
      ...(s.model !== null ? { model: s.model } : {}),
      ...(s.source !== null ? { source: s.source } : {}),
      ...(s.title !== null ? { title: s.title } : {}),
      extra: { hermes },
    },
  };
};

/** The summary row beside its summary: every column, and its stored text when Hermes' read changed it. */
const summaryMetadata = (row: HermesMessage | null): JsonObject => {
  if (!row) return {};
  const summaryRow: JsonObject = { role: row.role, state: row.state, ...hermesRowExtra(row) };
  if (summaryText(row) !== row.content) summaryRow.storedContent = row.content;
  return { summaryRow };
};

/**
 * A step's identity: what its event id hashes. A message's includes its content, so a row changed
 * in the source gets another id; null for a step that writes nothing.
 */
export const stepKey = (step: PlanStep): string | null => {
  switch (step.kind) {
    case 'start':
      return `start|${step.session.id}|${step.session.startedAt}|${step.link}|${step.parentId}|${step.summary?.id ?? ''}`;
    case 'message':
      return `m|${step.row.rowId}|${rowFingerprint(step.row)}`;
    case 'compaction':
      if (step.messageIds.length === 0) {
        if (step.inline) return null;
        return step.summaryRow ? `m|${step.summaryRow.rowId}|${rowFingerprint(step.summaryRow)}` : null;
      }
      return `c|${step.summaryId}|${fingerprint([step.messageIds, step.summaryRow?.content ?? ''])}`;
    case 'rewind':
      // Ids of the other reasons are as before `carried_over` existed: imported ledgers keep them.
      if (step.reason === 'carried_over') return `r|co|${step.messageIds.join(',')}`;
      return step.reason === 'session-meta' ? `r|sm|${step.messageIds.join(',')}` : `r|${step.messageIds.join(',')}`;
    case 'child':
      return `l|${step.childId}`;
    case 'continued':
      return `n|${step.childId}|${step.summaryId}`;
    case 'end':
      return `e|${step.endedAt}|${step.endReason ?? ''}`;
  }
};

/** The deterministic event id of a step in a stream (null: the step writes nothing). */
export const stepId = (stream: string, step: PlanStep): string | null => {
  const key = stepKey(step);
  return key === null ? null : deterministicId('hermes-import', stream, key);
};

/**
 * The ledger event for one plan step, or null when the step writes nothing (`knownId`: its stepId). Ids hash the step's
 * identity (and a message's content), so the same source gives the same ids and a changed row
 * gives a different one.
 */
export const stepEvent = (stream: string, step: PlanStep, session: HermesSession, knownId?: string): PlannedEvent | null => {
  // The caller that already computed the id (the import) passes it: hashing it again is a third of the mapping's cost.
  const id = knownId ?? stepId(stream, step);
  if (id === null) return null;
  const make = (event: SessionEvent, hermes: JsonObject, rowIds: number[]): PlannedEvent => {
    const encoded = encodeSessionEvent(event);
    const metadata = encoded.metadata;
    metadata.importedFrom = 'hermes';
    // Left out when empty (every plain message): flat metadata is encoded for the chain in one native call.
    if (hasKeys(hermes)) metadata.hermes = hermes;
    return { id, type: encoded.type, data: encoded.data as SessionEvent['data'], metadata, rowIds };
  };
  switch (step.kind) {
    case 'start':
      return make(startData(step), summaryMetadata(step.summary?.row ?? null), step.summary?.row ? [step.summary.row.rowId] : []);
    case 'message':
      return make(
        { type: 'message.appended', data: messageData(step.row, step.messageId, session.startedAt) },
        {},
        [step.row.rowId],
      );
    case 'compaction': {
      const summary = summaryText(step.summaryRow);
      const copies = step.copies.map((c) => ({ of: c.of, state: c.row.state, ...hermesRowExtra(c.row) }));
      const hermes: JsonObject = {
        rowIds: step.rowIds,
        ...summaryMetadata(step.summaryRow),
        ...(copies.length > 0 ? { copies } : {}),
        ...(step.summaryIds.length > 0 ? { summaryIds: step.summaryIds } : {}),
      };
      const rowIds = [...(step.summaryRow ? [step.summaryRow.rowId] : []), ...step.copies.map((c) => c.row.rowId)];
      if (step.messageIds.length === 0) {
        // Everything it archived was carried over: only its summary row is new.
        if (!step.summaryRow || step.inline) return null;
        const data = messageData(step.summaryRow, step.summaryId, session.startedAt);
        return make({ type: 'message.appended', data }, hermes, rowIds);
      }
      const at = step.summaryRow?.timestamp ?? step.copies[0]?.row.timestamp ?? null;
      return make(
        {
          type: 'history.compacted',
          data: {
            ...(step.through !== null ? { throughMessageId: step.through } : { messageIds: step.messageIds }),
            summary,
            summaryId: step.summaryId,
            compactedAt: isoOf(at, session.startedAt),
          },
        },
        hermes,
        rowIds,
      );
    }
    case 'rewind':
      return make(
        { type: 'history.rewound', data: { messageIds: step.messageIds, reason: step.reason, rewoundAt: isoOf(step.at, session.endedAt, session.startedAt) } },
        { rowIds: step.rowIds },
        [],
      );
    case 'child':
      return make(
        { type: 'session.child_linked', data: { childId: step.childId, link: step.link, linkedAt: isoOf(step.at, session.startedAt) } },
        {},
        [],
      );
    case 'continued':
      return make(
        {
          type: 'session.continued',
          data: { childId: step.childId, summary: summaryText(step.summaryRow), summaryId: step.summaryId, continuedAt: isoOf(step.at, session.startedAt) },
        },
        { endReason: session.endReason, endedAt: session.endedAt },
        [],
      );
    case 'end':
      return make(
        { type: 'session.ended', data: { ...(step.endReason !== null ? { reason: step.endReason } : {}), endedAt: isoOf(step.endedAt) } },
        {},
        [],
      );
  }
};

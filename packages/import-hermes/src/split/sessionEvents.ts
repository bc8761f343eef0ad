import { illFormedMessage, illFormedPath, invalidInput } from '@session-ledger/core';
import { stepEvent, stepId } from '../mapping/stepEvent.js';
import type { SessionImport } from '../plan/importPlan.js';
import type { PlanStep } from '../plan/steps.js';
import type { SyncEvent } from '../ledger/syncStream.js';

/**
 * The event of one step of a session, checked (null: the step writes nothing). A string that is not
 * well-formed UTF-16 (a lone surrogate, e.g. a `\udcff` escape in a row's JSON) refuses the session,
 * naming it and the row: stores keep UTF-8, so the text would be stored as U+FFFD, and a repaired row
 * would be a message Hermes never held. The operator fixes the row and imports again.
 */
export const plannedEvent = (item: SessionImport, step: PlanStep): SyncEvent | null => {
  const id = stepId(item.stream, step);
  if (id === null) return null;
  const event = stepEvent(item.stream, step, item.session, id)!;
  const illFormed = illFormedPath(event.data, 'data') ?? illFormedPath(event.metadata, 'metadata');
  if (illFormed !== null) {
    const rows = event.rowIds.length > 0 ? `message row ${event.rowIds.join(', ')}` : 'its session row';
    throw invalidInput(`Hermes session ${item.session.id}, ${rows}: ${illFormedMessage(`the ${illFormed} of its ${event.type} event`, illFormed)} (fix the row, then import again)`);
  }
  return { kind: step.kind, event };
};

/** Every event of one session, built (and so checked) before any of it is written. */
export const plannedEvents = (item: SessionImport): SyncEvent[] => {
  const planned: SyncEvent[] = [];
  for (const step of item.steps) {
    const event = plannedEvent(item, step);
    if (event !== null) planned.push(event);
  }
  return planned;
};

/**
 * A surrogate code unit (paired or not), or the text of its JSON escape (which a JSON column, or
 * Hermes' `\u0000json:` content, parses into one).
 */
const SURROGATE = /[\ud800-\udfff]|\\u[dD][89a-fA-F]/;

/** Whether any string (or key) in a value holds a surrogate or its escape. */
const holdsSurrogate = (value: unknown): boolean => {
  if (typeof value === 'string') return SURROGATE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsSurrogate);
  for (const key in value) if (SURROGATE.test(key) || holdsSurrogate((value as Record<string, unknown>)[key])) return true;
  return false;
};

/**
 * Whether some event of the session might be refused as not well-formed: some text of its session
 * row or of its rows holds a surrogate or the escape of one. Conservative: a session that is not
 * suspect can never be refused for it (every string of its events comes from those texts, from what
 * they parse into, or from the import's own well-formed text), so the split import sends its
 * batches to the append worker while it builds the next ones; a suspect one is built whole first
 * (plannedEvents), so that a refusal still comes before any of it is written.
 */
export const mayBeIllFormed = (item: SessionImport): boolean => holdsSurrogate(item.session) || holdsSurrogate(item.rows);

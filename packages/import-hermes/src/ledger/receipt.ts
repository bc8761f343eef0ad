import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { deterministicId, isLedgerError, readWholeStream, sha256Hex, type EventStore, type Ledger, type NewEvent } from '@session-ledger/core';
import { isNewId } from '@session-ledger/events';
import { sessionStart } from './sessionStart.js';

/**
 * The import's receipt of one file: every Hermes session id the file held at each import, so a later
 * import can tell which sessions Hermes deleted since (outside test, session 27, F2: they stayed in
 * the ledger and no report said so). One stream per file, named by its real path; each import adds
 * the ids it had not recorded yet.
 */
export const RECEIPT_TYPE = 'hermes.sessions_received';

/** Ids per receipt event: a file of 100,000 sessions is 100 events of a few tens of kB. */
const IDS_PER_EVENT = 1000;

/** The file as the receipt knows it: its real path (symbolic links followed), else the absolute path. */
export const sourceKey = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/** A `ledger-` stream: written only by session-ledger itself, so no raw append can forge a receipt. */
export const receiptStream = (key: string): string => `ledger-import-hermes-${sha256Hex(key).slice(0, 32)}`;

/** The session ids recorded by earlier imports of the file, first seen first; none before its first import. */
export const readReceipt = async (store: EventStore, stream: string): Promise<string[]> => {
  let events;
  try {
    events = await readWholeStream(store, stream);
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found') || isLedgerError(error, 'stream_deleted')) return [];
    throw error;
  }
  const ids = new Set<string>();
  for (const event of events) {
    const listed = event.type === RECEIPT_TYPE ? (event.data as { sessionIds?: unknown }).sessionIds : undefined;
    if (Array.isArray(listed)) for (const id of listed) if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
};

/** Sessions an earlier import recorded that the file no longer has and the ledger still holds (not deleted in it). */
export const noLongerInSource = async (store: EventStore, received: string[], present: ReadonlySet<string>): Promise<string[]> => {
  const out: string[] = [];
  for (const id of received) if (!present.has(id) && (await sessionStart(store, id)) !== null) out.push(id);
  return out;
};

/**
 * Records the file's session ids not recorded yet. Ids are deterministic, so two imports of the file
 * racing to record the same ones store them once; the order of the events does not matter (a set).
 * An id the ledger cannot take as a new session id (isNewId: a space, a control character, a lone
 * surrogate, 201 characters or more, "." or "..") is never a session of the ledger: left out, so a
 * hostile file cannot make a receipt event of any size (nor list "." and "..", outside test, session 30).
 */
export const recordReceipt = async (ledger: Ledger, stream: string, key: string, received: string[], present: string[]): Promise<void> => {
  const known = new Set(received);
  const fresh = [...new Set(present)].filter((id) => !known.has(id) && isNewId(id));
  const events: NewEvent[] = [];
  for (let at = 0; at < fresh.length; at += IDS_PER_EVENT) {
    const sessionIds = fresh.slice(at, at + IDS_PER_EVENT);
    events.push({ id: deterministicId('hermes-receipt', stream, ...sessionIds), type: RECEIPT_TYPE, data: { path: key, sessionIds }, metadata: {} });
  }
  if (events.length > 0) await ledger.append(stream, events, { expectedRevision: 'any' });
};

import type { RecordedEvent } from '../envelope.js';
import { invalidInput, isLedgerError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { JsonObject } from '../json.js';
import { createLedger, readWholeStream, type Ledger } from '../ledger.js';
import type { EventStore } from '../port.js';
import { SUBSCRIBER_BOOK, type SubscriberBook, type SubscriberEventKind, type SubscriberStatus } from './statusBook.js';
import { foldSubscriberStatus } from './statusFold.js';

export const readSubscriberEvents = async (store: EventStore, book: SubscriberBook = SUBSCRIBER_BOOK): Promise<RecordedEvent[]> => {
  try {
    return await readWholeStream(store, book.stream);
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return [];
    throw error;
  }
};

/** A subscriber's checkpoint; one that `registered` before may still have it where an earlier version kept it. */
export const readBookCheckpoint = async (store: EventStore, book: SubscriberBook, name: string, registered: boolean): Promise<bigint | null> => {
  const current = await store.readCheckpoint(book.checkpoint(name));
  if (current !== null || !registered || !book.formerCheckpoint) return current;
  return store.readCheckpoint(book.formerCheckpoint(name));
};

/** Every subscriber of `book` ever registered in this store, with its state and checkpoint. */
export const readSubscriberStatuses = async (store: EventStore, book: SubscriberBook = SUBSCRIBER_BOOK): Promise<SubscriberStatus[]> => {
  const folded = foldSubscriberStatus(book, await readSubscriberEvents(store, book));
  const out: SubscriberStatus[] = [];
  for (const status of folded.values()) out.push({ ...status, checkpoint: await readBookCheckpoint(store, book, status.name, true) });
  return out;
};

/** One subscriber's status; not_found when it never registered. */
/**
 * A name no subscriber of the book can have is bad input (exit 2, 400), not a subscriber not found:
 * a name holding a newline was "not found" under another name's spelling (outside test, session 25).
 */
const checkName = (book: SubscriberBook, name: string): void => {
  if (!book.validName.test(name)) throw invalidInput(`Invalid ${book.noun} name: ${JSON.stringify(name)}`, 'name');
};

export const readSubscriberStatus = async (store: EventStore, name: string, book: SubscriberBook = SUBSCRIBER_BOOK): Promise<SubscriberStatus> => {
  checkName(book, name);
  const status = (await readSubscriberStatuses(store, book)).find((candidate) => candidate.name === name);
  if (!status) throw notFound(book.noun, name);
  return status;
};

export const recordSubscriberEvent = (ledger: Ledger, book: SubscriberBook, kind: SubscriberEventKind, data: JsonObject) =>
  ledger.append(book.stream, [{ id: newId(), type: book.types[kind], data }], { expectedRevision: 'any' });

/**
 * Un-parks subscribers (one by name, or every parked one): a running subscriber, in any process,
 * sees the event and delivers the event it failed on again first. Returns the names resumed;
 * not_found when `name` never registered.
 */
export const resumeSubscribers = async (
  store: EventStore,
  name?: string,
  by = 'cli',
  book: SubscriberBook = SUBSCRIBER_BOOK,
): Promise<string[]> => {
  if (name !== undefined) checkName(book, name);
  const statuses = await readSubscriberStatuses(store, book);
  if (name !== undefined && !statuses.some((status) => status.name === name)) throw notFound(book.noun, name);
  const parked = statuses.filter((status) => status.state === 'parked' && (name === undefined || status.name === name));
  const ledger = createLedger(store);
  for (const status of parked) await recordSubscriberEvent(ledger, book, 'resumed', { name: status.name, by });
  return parked.map((status) => status.name);
};

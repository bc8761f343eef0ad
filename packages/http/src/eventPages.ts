import type { ServerResponse } from 'node:http';
import { eventToJson, toJson, type RecordedEvent } from '@session-ledger/core';
import { JSON_TYPE } from './answer.js';
import { writer } from './drain.js';

/** The JSON text a page read from the store may hold before the next page is made smaller (one larger event goes alone). */
export const PAGE_TEXT = 1024 * 1024;
const MOST_A_PAGE = 500;

/** Where the last event sent was: the page after it is read next. */
export interface PageEnd {
  position: bigint;
  revision: bigint;
}

/** Reads the page after `last` (null: the first), at most `count` events. */
export type ReadPage = (last: PageEnd | null, count: number) => Promise<RecordedEvent[]>;

/**
 * Answers a read of up to `max` events (GET /all, GET /streams/:stream) as one JSON array written
 * page by page, each only once the client has read the one before. A page starts at one event and
 * doubles while pages stay under PAGE_TEXT, so memory holds about a page, not 10,000 events of up to
 * 16 MiB each (outside test, session 21: four 37.5 MB answers took the server to 1.08 GB).
 *
 * The first page is read and written out before the status is sent, so a missing or deleted stream
 * is still 404 or 410, damage 503. A read that fails later (the stream deleted meanwhile, an event
 * stored too deep to write out) cuts the answer off without its closing bracket: a client sees a
 * broken answer, never a short list it takes for whole.
 */
export const answerEventPages = async (res: ServerResponse, head: boolean, max: number, readPage: ReadPage): Promise<void> => {
  let sent = 0;
  /** A page as the next read needs it: its last event, how many it held, the length of its JSON. */
  const pageOf = (events: RecordedEvent[], asked: number) => {
    let text = '';
    for (const event of events) text += (sent++ === 0 ? '' : ',') + toJson(eventToJson(event));
    const end = events[events.length - 1];
    // Not the event itself: kept while the client is slow to read, it would be a second copy of it.
    const last: PageEnd | null = end ? { position: end.position, revision: end.revision } : null;
    return { text, last, full: events.length === asked, length: text.length };
  };
  let count = 1;
  // Written out before the status too: an event stored too deep to write out is still a 503.
  let page = pageOf(await readPage(null, count), count);
  res.writeHead(200, { 'content-type': JSON_TYPE });
  if (head) return void res.end();
  const write = writer(res);
  try {
    await write(`[${take(page)}`);
    while (!res.destroyed && page.full && sent < max) {
      count = Math.min(MOST_A_PAGE, max - sent, page.length < PAGE_TEXT ? count * 2 : Math.max(1, Math.floor((count * PAGE_TEXT) / page.length)));
      page = pageOf(await readPage(page.last!, count), count);
      await write(take(page));
    }
    res.end(']');
  } catch (error) {
    res.destroy(error as Error);
  }
};

/** The page's text, let go of by the page: while the client is slow to take it, only the socket's copy is held. */
const take = (page: { text: string }): string => {
  const { text } = page;
  page.text = '';
  return text;
};

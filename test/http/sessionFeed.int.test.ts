import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, type EventStore, type Subscription } from '@session-ledger/core';
import { createHttpService } from '@session-ledger/http';
import { appendMessage, compressSession, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempDir } from '../support/cli.js';
import { readRawSse } from '../support/http.js';

/** A store that counts what its `$all` reads hand out, and runs `onHead` once after a read of the last position. */
const counting = (store: EventStore, onHead?: () => Promise<void>) => {
  const pulled = { all: 0 };
  let headHook = onHead;
  const wrapped: EventStore = Object.create(store) as EventStore;
  wrapped.readAll = async (options) => {
    const events = await store.readAll(options);
    pulled.all += events.length;
    if (options?.direction === 'backwards' && headHook) {
      const hook = headHook;
      headHook = undefined;
      await hook();
    }
    return events;
  };
  wrapped.subscribeToAll = (options) => {
    const inner = store.subscribeToAll(options);
    const iterator = inner[Symbol.asyncIterator]();
    const counted: Subscription = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const result = await iterator.next();
          if (!result.done && result.value.kind === 'event') pulled.all += 1;
          return result;
        },
        return: async () => iterator.return?.() ?? { done: true, value: undefined },
      }),
      close: () => inner.close(),
    };
    return counted;
  };
  return { store: wrapped, pulled };
};

const frames = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.includes('\nid: ') || block.startsWith('id: '))
    .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice('data: '.length)) as { position: string | number; type: string; data: { content?: string; sessionId?: string } });

describe("HTTP service: a conversation's feed reads that conversation", () => {
  let server: Server | undefined;
  let raw: EventStore | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server?.closeAllConnections();
    await raw?.close();
    server = undefined;
    raw = undefined;
  });

  const serve = async (store: EventStore): Promise<string> => {
    server = createHttpService({ ledger: createLedger(store), store, now: () => new Date(), settings: {}, host: '127.0.0.1' });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  /** A conversation of two segments (compressed once) among `others` messages of other sessions. */
  const seeded = async (others: number) => {
    raw = openSqliteStore(join(tempDir(), 'feed.sqlite'));
    const context = { ledger: createLedger(raw) };
    await startSession(context, { id: 'feed' });
    await appendMessage(context, 'feed', { role: 'user', content: 'one' });
    for (let n = 0; n < 4; n += 1) await startSession(context, { id: `other-${n}` });
    for (let n = 0; n < others; n += 1) await appendMessage(context, `other-${n % 4}`, { role: 'user', content: `noise ${n}` });
    await appendMessage(context, 'feed', { role: 'assistant', content: 'two' });
    await compressSession(context, 'feed', { summary: 'so far', childId: 'feed-2' });
    await appendMessage(context, 'feed-2', { role: 'user', content: 'three' });
    return context;
  };

  const caughtUp = (url: string, headers: Record<string, string> = {}) =>
    readRawSse(url, { headers, until: (seen) => seen.includes('event: caught-up') && seen.endsWith('\n\n') });

  it('sends every event of every segment in commit order, and pulls only what follows the last position from $all (not every stream)', async () => {
    await seeded(3000);
    const { store, pulled } = counting(raw!);
    const url = await serve(store);
    const { text } = await caughtUp(`${url}/sessions/feed-2/events`);
    const events = frames(text);
    const expected = [...(await raw!.readStream('session-feed')), ...(await raw!.readStream('session-feed-2'))].sort((a, b) => (a.position < b.position ? -1 : 1));
    expect(events.map((event) => BigInt(event.position))).toEqual(expected.map((event) => event.position));
    expect(events.filter((event) => event.type === 'message.appended').map((event) => event.data.content)).toEqual(['one', 'two', 'three']);
    // The scan over every stream this replaced handed out the 3,000 other messages.
    expect(pulled.all).toBeLessThan(10);
  });

  it('resumes after Last-Event-ID with the rest of the history, across segments', async () => {
    await seeded(10);
    const url = await serve(raw!);
    const all = frames((await caughtUp(`${url}/sessions/feed/events`)).text);
    const second = all.findIndex((event) => event.data.content === 'two');
    const rest = frames((await caughtUp(`${url}/sessions/feed/events`, { 'last-event-id': String(all[second]!.position) })).text);
    expect(rest.map((event) => event.position)).toEqual(all.slice(second + 1).map((event) => event.position));
    expect(rest.length).toBeGreaterThan(1);
  });

  it('sends an event written between the last-position read and the segments read exactly once', async () => {
    const context = await seeded(10);
    const { store } = counting(raw!, async () => {
      await appendMessage(context, 'feed-2', { role: 'user', content: 'in between' });
    });
    const url = await serve(store);
    const { text } = await readRawSse(`${url}/sessions/feed/events`, {
      until: (seen) => seen.includes('in between') && seen.includes('event: caught-up') && seen.endsWith('\n\n'),
    });
    const events = frames(text);
    expect(events.filter((event) => event.data.content === 'in between')).toHaveLength(1);
    const positions = events.map((event) => BigInt(event.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(positions).size).toBe(positions.length);
  });

  it('follows live appends and a later compression after caught-up', async () => {
    const context = await seeded(10);
    const url = await serve(raw!);
    let wrote = false;
    const { text } = await readRawSse(`${url}/sessions/feed/events`, {
      until: (seen) => {
        if (seen.includes('event: caught-up') && !wrote) {
          wrote = true;
          void (async () => {
            await compressSession(context, 'feed-2', { summary: 'again', childId: 'feed-3' });
            await appendMessage(context, 'feed-3', { role: 'user', content: 'four' });
          })();
        }
        return seen.includes('"content":"four"') && seen.endsWith('\n\n');
      },
    });
    expect(frames(text).filter((event) => event.type === 'message.appended').map((event) => event.data.content)).toEqual(['one', 'two', 'three', 'four']);
  });
});

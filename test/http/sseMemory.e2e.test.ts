import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { appendMessages, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';
import { MB, settledRss, stalledClient } from '../support/memory.js';

const EVENTS = 5_000;
const PAYLOAD = 'x'.repeat(4_000);
const STALLED = 8;

/** A client that asks for every event (of `path`) as Server-Sent Events and then never reads a byte. */
const stalledSse = (url: string, path = '/subscribe') => stalledClient(url, path, 'text/event-stream');

/** Reads a stream as it comes, counting events (of `type`), until caught-up; keeps only a line's worth of text. */
const countUntilCaughtUp = async (url: string, type = 'bulk'): Promise<number> => {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const decoder = new TextDecoder();
  let carry = '';
  let events = 0;
  for await (const chunk of response.body!) {
    const lines = (carry + decoder.decode(chunk as Uint8Array, { stream: true })).split('\n');
    carry = lines.pop()!;
    events += lines.filter((line) => line === `event: ${type}`).length;
    if (lines.includes('event: caught-up')) break;
  }
  controller.abort();
  return events;
};

/**
 * Issue 14: 8 clients that never read a /subscribe stream over ~20 MB of history grew the server by
 * 348 MB (and 200 crashed it). With backpressure each costs a page of history and a socket buffer.
 */
describe('HTTP service: SSE memory with stalled readers', { timeout: 120_000 }, () => {
  const file = join(tempDir(), 'ledger.sqlite');
  let service: Awaited<ReturnType<typeof startServer>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    const store = openSqliteStore(file);
    for (let start = 0; start < EVENTS; start += 500) {
      const batch = Array.from({ length: 500 }, (_, i) => ({ id: randomUUID(), type: 'bulk', data: { n: start + i, payload: PAYLOAD } }));
      await store.appendToStream(`bulk-${start}`, batch, { expectedRevision: 'any' });
    }
    await store.close();
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${file}` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await service?.stop();
  });

  it('stays bounded: stalled readers hold a page each, not the history, and a reading client still gets everything', async () => {
    const pid = service.server.child.pid!;
    const before = await settledRss(pid);
    for (let i = 0; i < STALLED; i += 1) sockets.push(await stalledSse(service.url));
    const after = await settledRss(pid);
    const growth = after - before;
    const history = EVENTS * PAYLOAD.length;
    // Without backpressure each stalled client buffers the whole history and more (8 clients: ~470 MB
    // measured); with it, one catch-up page each (~55 MB). The ceiling: less than one history per client.
    expect({ growthMb: Math.round(growth / MB), withinCeiling: growth < STALLED * history }).toEqual({ growthMb: Math.round(growth / MB), withinCeiling: true });

    expect(await countUntilCaughtUp(`${service.url}/subscribe`)).toBe(EVENTS);
  });
});

/**
 * The same for one conversation's feed, whose history is read from its own segments (session 20): a
 * stalled reader holds a page of each segment, never the conversation it was asked for.
 */
describe("HTTP service: a conversation's feed with stalled readers", { timeout: 120_000 }, () => {
  const file = join(tempDir(), 'ledger.sqlite');
  let service: Awaited<ReturnType<typeof startServer>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    const context = { ledger: createLedger(openSqliteStore(file)) };
    await startSession(context, { id: 'big' });
    for (let start = 0; start < EVENTS; start += 500) {
      await appendMessages(context, 'big', Array.from({ length: 500 }, (_, i) => ({ role: 'user' as const, content: `${start + i} ${PAYLOAD}` })));
    }
    await context.ledger.store.close();
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${file}` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await service?.stop();
  });

  it('stays bounded: stalled readers hold a page each, not the conversation, and a reading client still gets everything', async () => {
    const pid = service.server.child.pid!;
    const before = await settledRss(pid);
    for (let i = 0; i < STALLED; i += 1) sockets.push(await stalledSse(service.url, '/sessions/big/events'));
    const after = await settledRss(pid);
    const growth = after - before;
    const history = EVENTS * PAYLOAD.length;
    // Holding the conversation's events per client, as the feed's first rewrite did, grew the server by
    // 157 MB for these 8 clients; a page of each segment, 10 MB. The ceiling: half a history per client.
    expect({ growthMb: Math.round(growth / MB), withinCeiling: growth < (STALLED * history) / 2 }).toEqual({ growthMb: Math.round(growth / MB), withinCeiling: true });

    expect(await countUntilCaughtUp(`${service.url}/sessions/big/events`, 'message.appended')).toBe(EVENTS);
  });
});

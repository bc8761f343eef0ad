import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { workerPids } from '@session-ledger/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { appendMessages, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';

const MB = 1024 * 1024;
const EVENTS = 5_000;
const PAYLOAD = 'x'.repeat(4_000);
const STALLED = 8;

/** A process's resident memory, from /proc (Linux, where CI runs). */
const rssOfOne = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The server's resident memory: its process and its workers (`serve --workers N`, SESSION_LEDGER_WORKERS). */
const rssOf = (pid: number): number => [pid, ...workerPids(pid)].reduce((sum, each) => sum + rssOfOne(each), 0);

/** Waits until the server's memory stops growing (no growth of 1 MiB over 2 s), at most 30 s. */
const settledRss = async (pid: number): Promise<number> => {
  let last = rssOf(pid);
  for (let i = 0; i < 15; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const now = rssOf(pid);
    if (now - last < MB) return Math.max(now, last);
    last = now;
  }
  return last;
};

/** A client that asks for every event (of `path`) and then never reads a byte. */
const stalledClient = (url: string, path = '/subscribe'): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });

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
    for (let i = 0; i < STALLED; i += 1) sockets.push(await stalledClient(service.url));
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
    for (let i = 0; i < STALLED; i += 1) sockets.push(await stalledClient(service.url, '/sessions/big/events'));
    const after = await settledRss(pid);
    const growth = after - before;
    const history = EVENTS * PAYLOAD.length;
    // Holding the conversation's events per client, as the feed's first rewrite did, grew the server by
    // 157 MB for these 8 clients; a page of each segment, 10 MB. The ceiling: half a history per client.
    expect({ growthMb: Math.round(growth / MB), withinCeiling: growth < (STALLED * history) / 2 }).toEqual({ growthMb: Math.round(growth / MB), withinCeiling: true });

    expect(await countUntilCaughtUp(`${service.url}/sessions/big/events`, 'message.appended')).toBe(EVENTS);
  });
});

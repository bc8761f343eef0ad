import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToJson, toJson, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { tempDir } from '../support/cli.js';
import { rawRequest, startServer } from '../support/http.js';
import { MB, settledRss, stalledClient } from '../support/memory.js';

const BIG = 'b'.repeat(4 * MB);
const HELD = fileURLToPath(new URL('./fixtures/heldByStalled.mjs', import.meta.url));
const BIG_EVENTS = 20;
const STALLED = 4;

/**
 * GET /all and GET /streams/:stream answer up to 10,000 events, each up to 16 MiB: they are written
 * page by page as the client reads (eventPages.ts). The pages must stitch into exactly what one read
 * of the store returns, and a client that stops reading must not make the server hold the answer.
 */
describe('HTTP: event reads are written page by page', { timeout: 180_000 }, () => {
  const file = join(tempDir(), 'ledger.sqlite');
  let service: Awaited<ReturnType<typeof startServer>>;
  let store: EventStore;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    store = openSqliteStore(file);
    // Small and large events mixed, so pages grow, then shrink to one event, then grow again.
    for (let n = 0; n < 1_200; n += 1) {
      const payload = n % 97 === 5 ? 'm'.repeat(600 * 1024) : `small ${n}`;
      await store.appendToStream(`mixed-${n % 3}`, [{ id: randomUUID(), type: 'noted', data: { n, payload } }], { expectedRevision: 'any' });
    }
    for (let n = 0; n < BIG_EVENTS; n += 1) {
      await store.appendToStream('big', [{ id: randomUUID(), type: 'bulk', data: { n, payload: BIG } }], { expectedRevision: 'any' });
    }
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${file}` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await service?.stop();
    await store?.close();
  });

  const text = async (path: string) => {
    const answer = await rawRequest(service.url, { path });
    expect(answer.status).toBe(200);
    return answer.text;
  };

  it('GET /all: any from and max answers exactly what one read of the store returns', async () => {
    for (const [from, max] of [[undefined, undefined], [0n, 10_000], [3n, 1], [17n, 450], [400n, 999], [1_100n, 10_000], [99_999n, 5]] as const) {
      const expected = toJson((await store.readAll({ fromPosition: from ?? 'start', maxCount: max ?? 1000 })).map(eventToJson));
      const query = [from === undefined ? '' : `from=${from}`, max === undefined ? '' : `max=${max}`].filter(Boolean).join('&');
      expect(await text(`/all${query ? `?${query}` : ''}`)).toBe(expected);
    }
  });

  it('GET /streams/:stream, forwards and backwards, answers what one read returns; 404 and HEAD as before', async () => {
    for (const [direction, from, max] of [['forwards', undefined, 10_000], ['forwards', 7n, 33], ['backwards', undefined, 10_000], ['backwards', 250n, 300], ['backwards', 0n, 10], ['forwards', 5_000n, 10]] as const) {
      const expected = toJson((await store.readStream('mixed-1', { direction, fromRevision: from, maxCount: max })).map(eventToJson));
      expect(await text(`/streams/mixed-1?direction=${direction}&max=${max}${from === undefined ? '' : `&from=${from}`}`)).toBe(expected);
    }
    expect((await rawRequest(service.url, { path: '/streams/none-such' })).status).toBe(404);
    const head = await rawRequest(service.url, { method: 'HEAD', path: '/all' });
    expect([head.status, head.headers['content-type'], head.text]).toEqual([200, 'application/json; charset=utf-8', '']);
  });

  it('damage met after the first page cuts the answer off: a broken answer, never a short list', async () => {
    for (let n = 0; n < 4; n += 1) await store.appendToStream('cut', [{ id: randomUUID(), type: 'noted', data: { n } }], { expectedRevision: 'any' });
    const db = new Database(file);
    db.prepare(`UPDATE events SET data = ? WHERE stream = 'cut' AND revision = 2`).run(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    db.close();
    // The status may be on its way when the connection is dropped: either way the read fails.
    await expect(fetch(`${service.url}/streams/cut`).then((response) => response.text())).rejects.toThrow();
    // Met on the first page, the same damage is still the one problem the client can read (503).
    expect((await fetch(`${service.url}/streams/cut?from=2`)).status).toBe(503);
  });

  it('clients that stop reading hold a page each, not the answer; a reading client still gets all of it', async () => {
    const pid = service.server.child.pid!;
    const before = await settledRss(pid);
    for (let i = 0; i < STALLED; i += 1) sockets.push(await stalledClient(service.url, '/streams/big?max=10000'));
    const growth = (await settledRss(pid)) - before;
    const answer = BIG_EVENTS * BIG.length;
    // Built whole, each answer held its text and its events (measured: 1,153 MB for these 4 clients); page by page,
    // 0-41 MB. The ceiling, half an answer a client, leaves room for the heap growing in steps (the heap test below is exact).
    expect({ growthMb: Math.round(growth / MB), withinCeiling: growth < (STALLED * answer) / 2 }).toEqual({ growthMb: Math.round(growth / MB), withinCeiling: true });
    const all = JSON.parse(await text('/streams/big?max=10000')) as Array<{ data: { n: number; payload: string } }>;
    expect(all.map((event) => [event.data.n, event.data.payload.length])).toEqual(Array.from({ length: BIG_EVENTS }, (_, n) => [n, BIG.length]));
  });

  it.each(['/all', '/streams/big?max=10000'])('a client stalled on %s holds one copy of the event it waits on, not three', (path) => {
    // Measured in a process of its own, its heap after full collections: 8 MiB events, 4 clients.
    // Holding the page's events and its text while the client was slow to read cost 3 copies (24 MiB
    // a client); letting go of both, only the text being written: 1 (8 MiB).
    const { perClient } = JSON.parse(execFileSync(process.execPath, ['--expose-gc', HELD, path, '4', '4', '8'], { encoding: 'utf8' })) as { perClient: number };
    expect({ perClient: Math.round(perClient), withinOneAndAHalf: perClient < 12 }).toEqual({ perClient: Math.round(perClient), withinOneAndAHalf: true });
  });
});

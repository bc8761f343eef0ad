import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createLedger } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { scratch } from './measure.js';
import { benchMessage } from './messages.js';
import type { BenchRow } from './types.js';

/**
 * Issue 14: one HTTP client, one keep-alive connection, appending messages to its own session on
 * `session-ledger serve` (another process, SQLite, durability normal). Target: the p50 latency of an
 * append <= the p50 of `GET /health` (the HTTP round trip, no work) + 2 x the p50 of the same append
 * through the writer API in process.
 */
const ROUNDS = 5;
const PER_ROUND = 400;
const CLI = fileURLToPath(new URL('../../../packages/cli/bin/session-ledger.js', import.meta.url));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const timedMs = async (work: () => Promise<unknown>): Promise<number> => {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

const startServer = (store: string): Promise<{ url: string; child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--store', `sqlite:${store}`, 'serve', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: (JSON.parse(out) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });

const call = (agent: Agent, url: string, method: string, path: string, body?: unknown): Promise<number> =>
  new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${url}${path}`, { method, agent, headers: text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
      res.resume();
      res.once('end', () => (res.statusCode! < 300 ? resolve(res.statusCode!) : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
    });
    req.once('error', reject);
    req.end(text);
  });

export const rows = async (): Promise<BenchRow[]> => {
  const dir = scratch('http');
  const server = await startServer(dir.file('served.sqlite'));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const store = openSqliteStore(dir.file('direct.sqlite'));
  const context = { ledger: createLedger(store) };
  try {
    await call(agent, server.url, 'POST', '/sessions', { id: 'bench-http' });
    await startSession(context, { id: 'bench-direct' });
    const health: number[] = [];
    const overHttp: number[] = [];
    const inProcess: number[] = [];
    let n = 0;
    // Rounds alternate the three, so each sees the same machine load; the first round warms up and is dropped.
    for (let round = 0; round <= ROUNDS; round += 1) {
      const keep = round > 0;
      for (let i = 0; i < PER_ROUND; i += 1) {
        const h = await timedMs(() => call(agent, server.url, 'GET', '/health'));
        const { id: _id, ...message } = benchMessage(n);
        const a = await timedMs(() => call(agent, server.url, 'POST', '/sessions/bench-http/messages', { ...message, id: `m-${n}` }));
        const d = await timedMs(() => appendMessage(context, 'bench-direct', benchMessage(n)));
        n += 1;
        if (keep) health.push(h), overHttp.push(a), inProcess.push(d);
      }
    }
    const [h, a, d] = [median(health), median(overHttp), median(inProcess)];
    const round = (value: number) => Math.round(value * 1000) / 1000;
    const ceiling = h + 2 * d;
    return [
      {
        name: 'http: one client, append p50 latency (keep-alive, sqlite normal)',
        unit: 'ms',
        value: round(a),
        baseline: { name: `GET /health p50 (${round(h)} ms) + 2 x in-process appendMessage p50 (${round(d)} ms); target ratio <= 1`, value: round(ceiling) },
        ratio: Math.round((a / ceiling) * 100) / 100,
      },
      { name: 'http: one client, GET /health p50 latency', unit: 'ms', value: round(h), baseline: null, ratio: null },
      { name: 'http: in-process appendMessage p50 latency (same store kind)', unit: 'ms', value: round(d), baseline: null, ratio: null },
    ];
  } finally {
    agent.destroy();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await store.close();
    dir.remove();
  }
};

import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createLedger, newId } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { compared, compareRates, scratch } from './measure.js';
import { benchMessage } from './messages.js';
import { openPlain } from './plainSqlite.js';
import type { BenchRow } from './types.js';

/**
 * Issue 14, part 4: group commit. 32 concurrent writers, each on its own session, through the
 * writer API in process and through `session-ledger serve` over keep-alive HTTP, against plain
 * better-sqlite3 measured in the same run. Targets: ratio >= 0.5 on every row.
 */
const WRITERS = 32;
const IN_PROCESS_EACH = 100;
const HTTP_EACH = { normal: 40, full: 15 } as const;
const SYNC = { normal: 'NORMAL', full: 'FULL' } as const;
const CLI = fileURLToPath(new URL('../../../packages/cli/bin/session-ledger.js', import.meta.url));

const plainEvents = (count: number) => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'message.appended', data: benchMessage(n) }));
const writers = () => Array.from({ length: WRITERS }, (_, index) => index);

const inProcessRow = async (): Promise<BenchRow> => {
  const dir = scratch('group');
  const count = WRITERS * IN_PROCESS_EACH;
  const rates = await compareRates(
    count,
    {
      prepare: async () => {
        const context = { ledger: createLedger(openSqliteStore(dir.file(`${newId()}.sqlite`))) };
        for (const index of writers()) await startSession(context, { id: `w-${index}` });
        return context;
      },
      work: async (context) => {
        await Promise.all(
          writers().map(async (index) => {
            for (let n = 0; n < IN_PROCESS_EACH; n += 1) await appendMessage(context, `w-${index}`, benchMessage(n));
          }),
        );
      },
      cleanup: (context) => context.ledger.store.close(),
    },
    {
      prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), 'NORMAL'), payload: plainEvents(count) }),
      work: ({ plain, payload }) => {
        for (let at = 0; at < payload.length; at += 1000) plain.insertBatch('session-bench', at, payload.slice(at, at + 1000));
      },
      cleanup: ({ plain }) => plain.close(),
    },
    5,
  );
  dir.remove();
  return compared(
    `group commit: ${WRITERS} concurrent writers in process, appendMessage each on its own session (sqlite normal)`,
    'messages/s',
    rates.subject,
    'plain better-sqlite3 inserts, 1,000 a transaction, synchronous=NORMAL; target ratio >= 0.5',
    rates.baseline,
  );
};

const startServer = (store: string): Promise<{ url: string; child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--store', store, 'serve', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: (JSON.parse(out) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });

const post = (agent: Agent, url: string, body: unknown): Promise<void> =>
  new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.once('end', () => (res.statusCode! < 300 ? resolve() : reject(new Error(`POST ${url}: ${res.statusCode}`))));
    });
    req.once('error', reject);
    req.end(text);
  });

const httpRow = async (durability: 'normal' | 'full'): Promise<BenchRow> => {
  const dir = scratch('group-http');
  const server = await startServer(`sqlite:${dir.file('served.sqlite')}?durability=${durability}`);
  const agents = writers().map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const each = HTTP_EACH[durability];
  try {
    const rates = await compareRates(
      WRITERS * each,
      {
        prepare: async () => {
          const prefix = newId();
          await Promise.all(agents.map((agent, index) => post(agent, `${server.url}/sessions`, { id: `${prefix}-${index}` })));
          return prefix;
        },
        work: async (prefix) => {
          await Promise.all(
            agents.map(async (agent, index) => {
              for (let n = 0; n < each; n += 1) {
                const { id: _id, ...message } = benchMessage(n);
                await post(agent, `${server.url}/sessions/${prefix}-${index}/messages`, { ...message, id: `m-${n}` });
              }
            }),
          );
        },
      },
      {
        prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), SYNC[durability]), payload: plainEvents(WRITERS * each) }),
        work: ({ plain, payload }) => payload.forEach((event, n) => plain.insertBatch('session-bench', n, [event])),
        cleanup: ({ plain }) => plain.close(),
      },
      5,
    );
    return compared(
      `group commit: HTTP appends, ${WRITERS} keep-alive clients on their own sessions (serve, sqlite ${durability})`,
      'messages/s',
      rates.subject,
      `plain better-sqlite3 single-insert transactions, WAL, synchronous=${SYNC[durability]}; target ratio >= 0.5`,
      rates.baseline,
    );
  } finally {
    for (const agent of agents) agent.destroy();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    dir.remove();
  }
};

export const rows = async (): Promise<BenchRow[]> => [await inProcessRow(), await httpRow('normal'), await httpRow('full')];

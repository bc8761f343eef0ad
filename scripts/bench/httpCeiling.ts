import { fileURLToPath } from 'node:url';
import { newId } from '@session-ledger/core';
import { closeClients, openClients, CLIENTS, startProcess, startSessions, stopProcess, timedPosts, type PostCpu } from './httpLoad.js';
import { compared, compareRates, scratch } from './measure.js';
import { openPlain } from './plainSqlite.js';
import { plainEvents } from './plainEvents.js';
import type { BenchRow } from './types.js';

/**
 * Issue 14's HTTP ceiling: the 32-client load of the HTTP row (httpLoad.ts) against a bare
 * node:http server (bareServer.ts: reads each body, answers 201 with a small JSON; no route, no
 * parse, no ledger), beside the HTTP row's baseline, plain single-insert transactions, in the same
 * run. Its ratio is the most any Node HTTP server reaches on this machine under this load
 * generator; the HTTP row's ratio divided by it is the share of that ceiling the service reaches.
 */
const EACH = 40;
const BARE = fileURLToPath(new URL('./bareServer.js', import.meta.url));

export const bareHttpRow = async (): Promise<BenchRow> => {
  const dir = scratch('http-ceiling');
  const server = await startProcess([BARE]);
  const clients = await openClients(server.url);
  const count = CLIENTS * EACH;
  const cpu: PostCpu = { server: 0, client: 0, messages: 0 };
  try {
    const rates = await compareRates(
      count,
      {
        prepare: () => startSessions(clients),
        work: (prefix) => timedPosts(clients, server.child.pid!, prefix, EACH, cpu),
      },
      {
        prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), 'NORMAL'), payload: plainEvents(count) }),
        work: ({ plain, payload }) => payload.forEach((event, n) => plain.insertBatch('session-bench', n, [event])),
        cleanup: ({ plain }) => plain.close(),
      },
      5,
    );
    process.stderr.write(
      `bench: bare node:http, ${CLIENTS} clients: server CPU ${(cpu.server / cpu.messages).toFixed(1)} us/request, load generator ${(cpu.client / cpu.messages).toFixed(1)} us/request\n`,
    );
    return compared(
      `ceiling: a bare node:http server (no parse, no ledger) under the same ${CLIENTS} keep-alive clients`,
      'requests/s',
      rates.subject,
      'plain better-sqlite3 single-insert transactions, WAL, synchronous=NORMAL (the HTTP row\'s baseline)',
      rates.baseline,
    );
  } finally {
    closeClients(clients);
    await stopProcess(server.child);
    dir.remove();
  }
};

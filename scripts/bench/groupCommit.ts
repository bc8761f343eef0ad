import { fileURLToPath } from 'node:url';
import { createLedger, newId } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { compared, compareRates, scratch } from './measure.js';
import { benchMessage } from './messages.js';
import { closeClients, openClients, startProcess, startSessions, stopProcess, timedPosts, type PostCpu } from './httpLoad.js';
import { openPlain } from './plainSqlite.js';
import { plainEvents } from './plainEvents.js';
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

const httpRow = async (durability: 'normal' | 'full'): Promise<BenchRow> => {
  const dir = scratch('group-http');
  const server = await startProcess([CLI, '--store', `sqlite:${dir.file('served.sqlite')}?durability=${durability}`, 'serve', '--port', '0', '--json']);
  const clients = await openClients(server.url);
  const each = HTTP_EACH[durability];
  const cpu: PostCpu = { server: 0, client: 0, messages: 0 };
  try {
    const rates = await compareRates(
      WRITERS * each,
      {
        prepare: async () => {
          return startSessions(clients);
        },
        work: (prefix) => timedPosts(clients, server.child.pid!, prefix, each, cpu),
      },
      {
        prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), SYNC[durability]), payload: plainEvents(WRITERS * each) }),
        work: ({ plain, payload }) => payload.forEach((event, n) => plain.insertBatch('session-bench', n, [event])),
        cleanup: ({ plain }) => plain.close(),
      },
      5,
    );
    process.stderr.write(`bench: serve (${durability}), ${WRITERS} clients: server CPU ${(cpu.server / cpu.messages).toFixed(1)} us/message, load generator ${(cpu.client / cpu.messages).toFixed(1)} us/message\n`);
    return compared(
      `group commit: HTTP appends, ${WRITERS} keep-alive clients on their own sessions (serve, sqlite ${durability})`,
      'messages/s',
      rates.subject,
      `plain better-sqlite3 single-insert transactions, WAL, synchronous=${SYNC[durability]}; target ratio >= 0.5`,
      rates.baseline,
    );
  } finally {
    closeClients(clients);
    await stopProcess(server.child);
    dir.remove();
  }
};

export const rows = async (): Promise<BenchRow[]> => [await inProcessRow(), await httpRow('normal'), await httpRow('full')];

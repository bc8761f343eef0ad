import { fileURLToPath } from 'node:url';
import { workerPids } from '@session-ledger/cli';
import { createLedger, newId } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { batchedInserts } from './batchedBaseline.js';
import { compared, compareRates, scratch } from './measure.js';
import { benchMessage } from './messages.js';
import { closeClients, openClients, postMessages, startProcess, startSessions, stopProcess, timedPosts, type PostCpu } from './httpLoad.js';
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
    batchedInserts(dir, count),
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

/**
 * Untimed rounds of posts before the trials: each worker process compiles the request path on its
 * own share of the requests, so with N workers the JIT needs N times as many to reach what one
 * process reaches (measured: the server's CPU per message fell for ~8 rounds with 2 workers).
 */
const WARMUP_ROUNDS = 6;

/** `workers`: undefined runs `serve` as `npm start` does (its default), else `--workers N`. */
const httpRow = async (durability: 'normal' | 'full', workers?: number): Promise<{ row: BenchRow; processes: number }> => {
  const dir = scratch('group-http');
  const flag = workers === undefined ? [] : ['--workers', String(workers)];
  const server = await startProcess([CLI, '--store', `sqlite:${dir.file('served.sqlite')}?durability=${durability}`, 'serve', '--port', '0', '--json', ...flag]);
  const clients = await openClients(server.url);
  const each = HTTP_EACH[durability];
  const cpu: PostCpu = { server: 0, client: 0, messages: 0 };
  const processes = Math.max(1, workerPids(server.child.pid!).length);
  const setting = workers === undefined ? `serve, ${processes === 1 ? 'one process' : `${processes} worker processes`} by default` : `serve --workers ${workers}`;
  try {
    for (let round = 0; round < WARMUP_ROUNDS; round += 1) await postMessages(clients, await startSessions(clients), each);
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
    process.stderr.write(`bench: ${setting} (${durability}), ${WRITERS} clients: server CPU ${(cpu.server / cpu.messages).toFixed(1)} us/message, load generator ${(cpu.client / cpu.messages).toFixed(1)} us/message\n`);
    const row = compared(
      `group commit: HTTP appends, ${WRITERS} keep-alive clients on their own sessions (${workers === undefined ? 'serve' : setting}, sqlite ${durability})`,
      'messages/s',
      rates.subject,
      `plain better-sqlite3 single-insert transactions, WAL, synchronous=${SYNC[durability]}; target ratio >= 0.5`,
      rates.baseline,
    );
    return { row, processes };
  } finally {
    closeClients(clients);
    await stopProcess(server.child);
    dir.remove();
  }
};

export const rows = async (): Promise<BenchRow[]> => {
  const inProcess = await inProcessRow();
  const byDefault = await httpRow('normal');
  // Beside it, the setting `serve` does not use by default: 1 when that is several workers, else 2.
  const other = await httpRow('normal', byDefault.processes === 1 ? 2 : 1);
  return [inProcess, byDefault.row, other.row, (await httpRow('full')).row];
};

import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { workerPids } from '@session-ledger/cli';
import { loadConversation } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { readSse, startServer } from '../support/http.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { expectAckedStored } from './ackedStored.js';
import { alive, eventually, postFresh } from './workerProcesses.js';

type Server = Awaited<ReturnType<typeof startServer>>;

/**
 * `serve --workers 2`: the primary holds the socket and hands each connection to one of two worker
 * processes, each with its own store connection and group commit on one SQLite file.
 */
describe('serve --workers 2 on one SQLite file', { timeout: 120_000 }, () => {
  const temp = tempLedger('workers');
  let service: Server;

  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2']);
  }, 60_000);

  afterAll(async () => {
    await service.stop();
    temp.remove();
  });

  it('prints one {url, store} line with the real port, and serves from two worker processes', () => {
    const printed = JSON.parse(service.server.stdout()) as { url: string; store: string };
    expect(printed).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/), store: `sqlite:${temp.file}` });
    expect(workerPids(service.server.child.pid!)).toHaveLength(2);
  });

  it('24 clients x 20 appends without ids or expected revisions, each on a new connection: every 2xx is stored, once', async () => {
    await expectAckedStored(temp.file, async (_client, content) => {
      const answer = await postFresh(service.url, '/sessions/busy/messages', { role: 'user', content });
      return { status: answer.status, messageId: answer.json?.messageId };
    });
  });

  it('two harnesses beginning a turn at once, on two connections (two workers), 40 rounds: exactly one is granted', async () => {
    for (let round = 0; round < 40; round += 1) {
      const session = `turn-race-${round}`;
      expect((await postFresh(service.url, '/sessions', { id: session })).status).toBe(201);
      const answers = await Promise.all([0, 1].map((client) => postFresh(service.url, `/sessions/${session}/turns`, { owner: `harness-${client}`, ttl: '60s' })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.json.error.type).toBe('session_active');
    }
  });

  it('an event stream served by one worker delivers appends made through the other', async () => {
    expect((await postFresh(service.url, '/sessions', { id: 'sse-across' })).status).toBe(201);
    const positions: string[] = [];
    const reading = readSse(`${service.url}/subscribe?prefix=session-sse-across`, {
      until: (events) => positions.length === 8 && positions.every((position) => events.some((event) => event.id === position)),
    });
    // Each append on a connection of its own: the primary hands them to the workers in turn.
    for (let index = 0; index < 8; index += 1) {
      const answer = await postFresh(service.url, '/sessions/sse-across/messages', { role: 'user', content: `live ${index}` });
      expect(answer.status).toBe(201);
      positions.push(String(answer.json.position));
    }
    const events = await reading;
    expect(positions.filter((position) => !events.some((event) => event.id === position))).toEqual([]);
  });

  it('kill -9 of a worker under load: nothing acknowledged is lost, the death is reported and a new worker serves', async () => {
    const primary = service.server.child.pid!;
    const [victim] = workerPids(primary);
    const acked = new Map<string, string[]>();
    let failed = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: 12 }, async (_, client) => {
        const session = `kill-${client}`;
        acked.set(session, []);
        expect((await postFresh(service.url, '/sessions', { id: session })).status).toBe(201);
        for (let index = 0; index < 40; index += 1) {
          if (!killed && [...acked.values()].reduce((sum, ids) => sum + ids.length, 0) >= 100) {
            killed = true;
            process.kill(victim!, 'SIGKILL');
          }
          // A connection the primary was handing to the worker as it died is never answered
          // (node:cluster's round robin): the client's timeout ends it, unacknowledged.
          const answer = await postFresh(service.url, `/sessions/${session}/messages`, { role: 'user', content: `#${index}` }, 5_000).catch(() => undefined);
          if (answer?.status === 201) acked.get(session)!.push(answer.json.messageId);
          else failed += 1;
        }
      }),
    );
    expect(killed).toBe(true);
    const store = openSqliteStore(temp.file);
    for (const [session, ids] of acked) {
      const stored = new Set((await loadConversation(store, session)).messages.map((message) => message.id));
      expect(ids.filter((id) => !stored.has(id))).toEqual([]);
    }
    await store.close();
    await eventually(() => service.server.stderr().includes(`worker process ${victim} was killed by SIGKILL; starting another`), 'the report');
    await eventually(() => workerPids(primary).length === 2 && !workerPids(primary).includes(victim!), 'a new worker');
    expect(failed).toBeLessThan(12 * 40);
    expect((await postFresh(service.url, '/sessions', { id: 'after-kill' })).status).toBe(201);
  });
});

/** An SSE request held open on a connection of its own; resolves with its status once answered. */
const openStream = (url: string): Promise<{ status: number; req: ClientRequest; res: IncomingMessage }> =>
  new Promise((resolve, reject) => {
    const base = new URL(url);
    const req = request({ host: base.hostname, port: base.port, path: '/subscribe', agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, req, res });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });

describe('serve --workers 2: limits, stopping, failing', { timeout: 60_000 }, () => {
  it('--max-subscribers counts the event streams of all workers together', async () => {
    const temp = tempLedger('workers-subscribers');
    const served = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2', '--max-subscribers', '2']);
    try {
      const first = await openStream(served.url);
      const second = await openStream(served.url);
      const third = await openStream(served.url); // whichever worker gets it, 2 are open
      expect([first.status, second.status, third.status]).toEqual([200, 200, 503]);
      third.req.destroy();
      first.req.destroy();
      await eventually(() => first.res.destroyed, 'the stream closed');
      // The freed slot is given back through the primary: a new stream gets it.
      let again = 503;
      for (let attempt = 0; attempt < 50 && again === 503; attempt += 1) {
        const next = await openStream(served.url);
        again = next.status;
        next.req.destroy();
        if (again === 503) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(again).toBe(200);
      second.req.destroy();
    } finally {
      await served.stop();
      temp.remove();
    }
  });

  it('SIGTERM stops the primary and every worker; exit 0', async () => {
    const temp = tempLedger('workers-stop');
    const served = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2']);
    const workers = workerPids(served.server.child.pid!);
    expect(workers).toHaveLength(2);
    expect(await served.stop()).toBe(0);
    await eventually(() => workers.every((pid) => !alive(pid)), 'the workers to exit');
    temp.remove();
  });

  it('--workers above 1 needs a sqlite: store; a count below 1 is refused', () => {
    const memory = runCli(['--store', 'memory:', 'serve', '--port', '0', '--workers', '2']);
    expect([memory.code, memory.stderr]).toEqual([2, 'session-ledger: --workers 2 needs a sqlite: store; a memory: store is served by one process\n']);
    const zero = runCli(['--store', 'memory:', 'serve', '--port', '0', '--workers', '0']);
    expect([zero.code, zero.stderr]).toEqual([2, 'session-ledger: --workers must be a whole number from 1 to 64: 0\n']);
  });

  it('a port already in use: one line, exit 2, no worker left behind', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const temp = tempLedger('workers-port');
    const cli = startCli(['serve', '--port', String(port), '--workers', '2'], { SESSION_LEDGER_STORE: `sqlite:${temp.file}` });
    const code = await new Promise<number | null>((resolve) => cli.child.once('exit', resolve));
    expect({ code, stderr: cli.stderr() }).toEqual({ code: 2, stderr: `session-ledger: Cannot listen on 127.0.0.1:${port}: EADDRINUSE\n` });
    expect(workerPids(cli.child.pid!)).toEqual([]);
    blocker.close();
    temp.remove();
  });
});

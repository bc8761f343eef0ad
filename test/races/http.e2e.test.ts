import { createLedger } from '@session-ledger/core';
import { loadConversation, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { startServer } from '../support/http.js';

type Server = Awaited<ReturnType<typeof startServer>>;

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * Three `session-ledger serve` processes on one SQLite file, clients that give no message id and
 * no expected revision: a 2xx means stored, once.
 */
describe('racing clients on several server processes (HTTP, one SQLite file)', () => {
  const temp = tempLedger('http-races');
  let servers: Server[] = [];

  beforeAll(async () => {
    servers = await Promise.all([0, 1, 2].map(() => startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` })));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    temp.remove();
  });

  it('24 clients x 20 appends without ids over 3 servers: every 2xx is stored, once', async () => {
    const store = openSqliteStore(temp.file);
    await startSession({ ledger: createLedger(store) }, { id: 'busy' });
    const acked: string[] = [];
    const refused: number[] = [];
    await Promise.all(
      Array.from({ length: 24 }, async (_, client) => {
        const server = servers[client % servers.length]!;
        for (let index = 0; index < 20; index += 1) {
          const response = await post(`${server.url}/sessions/busy/messages`, { role: 'user', content: `client ${client} #${index}` });
          const body = (await response.json()) as { messageId?: string };
          if (response.ok) acked.push(body.messageId!);
          else refused.push(response.status);
        }
      }),
    );
    const stored = (await loadConversation(store, 'busy')).messages.map((message) => message.id);
    expect(refused).toEqual([]);
    expect(acked).toHaveLength(480);
    expect(new Set(acked).size).toBe(480);
    expect([...stored].sort()).toEqual([...acked].sort());
    await store.close();
  });

  it('two harnesses beginning a turn at once on two servers, 40 rounds: exactly one is granted, the other gets 409 session_active', async () => {
    const store = openSqliteStore(temp.file);
    const context = { ledger: createLedger(store) };
    let doubleGrants = 0;
    for (let round = 0; round < 40; round += 1) {
      const session = `turn-race-${round}`;
      await startSession(context, { id: session });
      const answers = await Promise.all(
        [0, 1].map(async (client) => {
          const response = await post(`${servers[client]!.url}/sessions/${session}/turns`, { owner: `harness-${client}`, ttl: '60s' });
          return { status: response.status, body: (await response.json()) as { turnId?: string; error?: { type: string } } };
        }),
      );
      const granted = answers.filter((answer) => answer.status === 201);
      if (granted.length > 1) doubleGrants += 1;
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.error?.type).toBe('session_active');
      const raw = await loadConversation(store, session, { view: 'raw' });
      expect(raw.events.filter((event) => event.type === 'turn.started').map((event) => (event.data as { turnId: string }).turnId)).toEqual([granted[0]!.body.turnId]);
    }
    expect(doubleGrants).toBe(0);
    await store.close();
  });
});

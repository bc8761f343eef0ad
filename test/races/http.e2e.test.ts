import { createLedger, newId } from '@session-ledger/core';
import { loadConversation, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { expectAckedStored } from './ackedStored.js';
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
    await expectAckedStored(temp.file, async (client, content) => {
      const response = await post(`${servers[client % servers.length]!.url}/sessions/busy/messages`, { role: 'user', content });
      const body = (await response.json()) as { messageId?: string };
      return { status: response.status, messageId: body.messageId };
    });
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

  it("one raw event id POSTed at once 4 times over 3 servers, no expected revision, 40 rounds: stored once, written once, one position", async () => {
    const store = openSqliteStore(temp.file);
    for (let round = 0; round < 40; round += 1) {
      const id = newId();
      const answers = await Promise.all(
        [0, 1, 2, 2].map(async (server) => {
          const response = await post(`${servers[server]!.url}/streams/same-id`, { id, type: 'said', data: { round } });
          return { status: response.status, body: (await response.json()) as { position?: number; written?: boolean } };
        }),
      );
      expect(answers.map((answer) => answer.status).every((status) => status === 201 || status === 200)).toBe(true);
      const stored = (await store.readStream('same-id', { direction: 'backwards', maxCount: 10 })).filter((event) => event.id === id);
      expect({ round, copies: stored.length }).toEqual({ round, copies: 1 });
      expect({ round, written: answers.filter((answer) => answer.body.written === true).length }).toEqual({ round, written: 1 });
      expect(new Set(answers.map((answer) => String(answer.body.position)))).toEqual(new Set([String(stored[0]!.position)]));
    }
    await store.close();
  }, 120_000);
});

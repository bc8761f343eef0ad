import { loadConversation } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startServer } from '../support/http.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { postFresh } from './workerProcesses.js';

const CLIENTS = 16;
const KILLS = 3;

/**
 * kill -9 of `serve` (one process, as `npm start` runs it) while 16 clients append without ids or
 * expected revisions, 12 to their own sessions and 4 to one shared session; restarted on the same
 * file after each kill, the clients going on. Every acknowledged message is stored, once; a message
 * stored unacknowledged was in flight at a kill (at most one a client a kill); the log verifies.
 */
describe('serve killed with SIGKILL under load, restarted on the same file', { timeout: 180_000 }, () => {
  it.each(['normal', 'full'])('loses nothing acknowledged (durability %s)', async (durability) => {
    const temp = tempLedger(`serve-killed-${durability}`);
    const env = { SESSION_LEDGER_STORE: `sqlite:${temp.file}?durability=${durability}` };
    let service = await startServer(env);
    try {
      const sessions = Array.from({ length: CLIENTS }, (_, client) => (client < 12 ? `own-${client}` : 'shared'));
      for (const session of new Set(sessions)) expect((await postFresh(service.url, '/sessions', { id: session })).status).toBe(201);
      const acked = new Map<string, string>();
      const unanswered = new Set<string>();
      const other: number[] = [];
      let running = true;
      const client = async (index: number) => {
        for (let n = 0; running; n += 1) {
          const content = `client ${index} #${n}`;
          const answer = await postFresh(service.url, `/sessions/${sessions[index]}/messages`, { role: 'user', content }, 5_000).catch(() => undefined);
          if (answer === undefined) {
            unanswered.add(content);
            await new Promise((resolve) => setTimeout(resolve, 20));
          } else if (answer.status === 201) acked.set(content, answer.json.messageId);
          else other.push(answer.status);
        }
      };
      const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
      for (let kill = 0; kill < KILLS; kill += 1) {
        const before = acked.size;
        while (acked.size < before + 200) await new Promise((resolve) => setTimeout(resolve, 10));
        service.server.child.kill('SIGKILL');
        await new Promise((resolve) => service.server.child.once('exit', resolve));
        service = await startServer(env);
      }
      const before = acked.size;
      while (acked.size < before + 100) await new Promise((resolve) => setTimeout(resolve, 10));
      running = false;
      await Promise.all(clients);
      await service.stop();

      expect(other).toEqual([]);
      const store = openSqliteStore(temp.file);
      const stored = new Map<string, number>();
      for (const session of new Set(sessions)) {
        for (const message of (await loadConversation(store, session)).messages) stored.set(message.content as string, (stored.get(message.content as string) ?? 0) + 1);
      }
      await store.close();
      expect([...acked.keys()].filter((content) => stored.get(content) !== 1)).toEqual([]);
      const unacknowledged = [...stored.keys()].filter((content) => !acked.has(content));
      expect(unacknowledged.filter((content) => !unanswered.has(content))).toEqual([]);
      expect(unacknowledged.length).toBeLessThanOrEqual(CLIENTS * KILLS);
      expect([...stored.values()].filter((count) => count !== 1)).toEqual([]);
      const verify = runCli(['--json', 'audit', 'verify'], { env });
      expect([verify.code, verify.json().ok]).toEqual([0, true]);
    } finally {
      temp.remove();
    }
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { runCli, tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';
import { writerOn } from './helpers.js';

/** Two sessions, each holding an event of a type this version does not know (stored below the ledger, as an older version would have). */
const seeded = async () => {
  const file = join(tempDir('undecodable-'), 'ledger.sqlite');
  const store = openSqliteStore(file);
  const { context } = writerOn(store, new Date().toISOString());
  for (const id of ['A', 'B']) {
    await startSession(context, { id });
    await appendMessage(context, id, { role: 'user', content: `hello ${id}` });
    await store.appendToStream(`session-${id}`, [{ id: newId(), type: 'legacy.note', data: {}, metadata: {} }], { expectedRevision: 'any' });
  }
  await store.close();
  return { SESSION_LEDGER_STORE: `sqlite:${file}` };
};

describe('deleting a session whose events cannot all be decoded (CLI, HTTP)', { timeout: 60_000 }, () => {
  it('sessions delete and DELETE /sessions/:id delete it; reading it still fails', async () => {
    const env = await seeded();
    expect(runCli(['sessions', 'show', 'A'], { env }).code).toBe(2);

    const cli = runCli(['sessions', 'delete', 'A', '--json'], { env });

    expect(cli.code).toBe(0);
    expect(cli.json()).toMatchObject({ deleted: ['A'], streams: ['session-A'] });
    const service = await startServer(env);
    try {
      const response = await fetch(`${service.url}/sessions/B`, { method: 'DELETE', headers: { 'if-match': '*' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ deleted: ['session-B'] });
    } finally {
      await service.stop();
    }
    expect(runCli(['events', 'read', 'session-B'], { env }).code).toBe(1);
  });
});

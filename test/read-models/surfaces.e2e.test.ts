import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLedger } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli, tempDir } from '../support/cli.js';
import { bodyOf, errorOf, startServer } from '../support/http.js';

const page = z.object({ sessions: z.array(z.object({ rootId: z.string(), source: z.string().nullable(), messages: z.number() })), nextCursor: z.string().nullable() });

/** A ledger written without the read models (as an older version wrote it): the catalog is built when a surface opens it. */
const seeded = async (dir: string) => {
  const file = join(dir, 'ledger.sqlite');
  const store = openSqliteStore(file);
  let clock = Date.parse('2026-03-01T10:00:00Z');
  const context = { ledger: createLedger(store), now: () => new Date((clock += 1000)) };
  for (const [id, source, title] of [
    ['abcd-0001', 'cli', 'first talk'],
    ['abcd-0002', 'cli', 'same title'],
    ['abce-0003', 'hermes', 'same title'],
    ['ffff-0004', 'hermes', 'last talk'],
    ['0000-0005', 'cli', 'fifth'],
  ] as const) {
    await startSession(context, { id, source, title });
    await appendMessage(context, id, { role: 'user', content: `hello ${id}` });
  }
  await store.close();
  return { SESSION_LEDGER_STORE: `sqlite:${file}`, SESSION_LEDGER_HOME: dir };
};

describe('the catalog on the surfaces (CLI, HTTP)', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = await seeded(tempDir());
  });

  it('sessions list walks pages by cursor, filters by source, and prints the next cursor on stderr', () => {
    const first = runCli(['sessions', 'list', '--limit', '2', '--json'], { env });
    expect(first.code).toBe(0);
    const one = page.parse(first.json());
    expect(one.sessions.map((row) => row.rootId)).toEqual(['0000-0005', 'ffff-0004']);
    const rest = page.parse(runCli(['sessions', 'list', '--limit', '10', '--cursor', one.nextCursor!, '--json'], { env }).json());
    expect(rest).toEqual({ sessions: [expect.objectContaining({ rootId: 'abce-0003' }), expect.objectContaining({ rootId: 'abcd-0002' }), expect.objectContaining({ rootId: 'abcd-0001' })], nextCursor: null });
    const plain = runCli(['sessions', 'list', '--limit', '2'], { env });
    expect(plain.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual(['0000-0005', 'ffff-0004']);
    expect(plain.stderr).toContain(`sessions list --cursor ${one.nextCursor}`);
    expect(page.parse(runCli(['sessions', 'list', '--source', 'hermes', '--json'], { env }).json()).sessions.map((row) => row.rootId)).toEqual(['ffff-0004', 'abce-0003']);
    expect(runCli(['sessions', 'list', '--limit', '0'], { env }).code).toBe(2);
    const huge = runCli(['sessions', 'list', '--limit', '1e999'], { env });
    expect([huge.code, huge.stderr.trim()]).toEqual([2, 'session-ledger: --limit must be a whole number: 1e999']);
    expect(runCli(['sessions', 'list', '--since', 'last tuesday'], { env }).code).toBe(2);
    expect(runCli(['sessions', 'list', '--cursor', 'bogus'], { env }).code).toBe(2);
  });

  it('a unique prefix or an exact title names the session; an ambiguous one exits 1 naming the candidates', () => {
    expect(runCli(['sessions', 'resume', 'ffff'], { env }).stdout).toContain('hello ffff-0004');
    expect(runCli(['sessions', 'resume', 'first talk'], { env }).stdout).toContain('hello abcd-0001');
    expect(runCli(['messages', 'append', 'last talk', '--role', 'user', '--content', 'by title'], { env }).code).toBe(0);
    const ambiguous = runCli(['sessions', 'show', 'abcd'], { env });
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('abcd-0001, abcd-0002');
    expect(runCli(['sessions', 'show', 'same title'], { env }).code).toBe(1);
  });

  it('sessions stats and projections status', () => {
    const stats = runCli(['sessions', 'stats', '--json'], { env }).json();
    expect(stats).toMatchObject({ sessions: 5, bySource: [{ source: 'cli', sessions: 3 }, { source: 'hermes', sessions: 2 }] });
    expect(stats.storeBytes).toBeGreaterThan(0);
    expect(runCli(['projections', 'status', '--json'], { env }).json()).toEqual([
      expect.objectContaining({ name: 'catalog', status: 'ok', version: 3 }),
      expect.objectContaining({ name: 'search', status: 'ok', version: 3 }),
    ]);
  });

  describe('HTTP', () => {
    let service: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      service = await startServer(env);
    });
    afterAll(async () => service?.stop());

    it('GET /sessions pages by cursor; bad limit, live or cursor are 400', async () => {
      const one = await bodyOf(await fetch(`${service.url}/sessions?limit=3`), page);
      expect(one.sessions).toHaveLength(3);
      const two = await bodyOf(await fetch(`${service.url}/sessions?limit=3&cursor=${one.nextCursor}`), page);
      expect(two.nextCursor).toBeNull();
      expect([...one.sessions, ...two.sessions].map((row) => row.rootId).sort()).toEqual(['0000-0005', 'abcd-0001', 'abcd-0002', 'abce-0003', 'ffff-0004']);
      expect((await bodyOf(await fetch(`${service.url}/sessions?source=cli&live=false&since=2026-03-01T00:00:00Z`), page)).sessions).toHaveLength(3);
      for (const query of ['limit=0', 'limit=201', 'live=yes', 'cursor=bogus', 'since=soon']) {
        expect({ query, status: (await fetch(`${service.url}/sessions?${query}`)).status }).toEqual({ query, status: 400 });
      }
    });

    it('GET /sessions/:id takes a unique prefix or a title; an ambiguous one is 409 with the candidates', async () => {
      expect((await fetch(`${service.url}/sessions/abce`)).status).toBe(200);
      expect((await fetch(`${service.url}/sessions/${encodeURIComponent('first talk')}`)).status).toBe(200);
      const ambiguous = await fetch(`${service.url}/sessions/abcd`);
      expect(ambiguous.status).toBe(409);
      expect(await errorOf(ambiguous)).toMatchObject({ type: 'ambiguous', details: { candidates: ['abcd-0001', 'abcd-0002'] } });
    });
  });
});

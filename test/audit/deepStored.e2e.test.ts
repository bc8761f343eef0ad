import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { errorOf, readRawSse, startServer } from '../support/http.js';

/**
 * Data nested 5,000 deep can only be stored by editing the file (every surface refuses more than 100
 * levels). Writing it out overflows the stack: that is a damaged ledger (HTTP 503, CLI exit 4, one
 * line), not an internal error (500 / exit 70, outside HTTP test, session 14); `audit verify` names it.
 */
describe('a value stored nested too deep to write out, on the HTTP and CLI read surfaces', () => {
  const file = join(tempDir(), 'ledger.sqlite');
  const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    expect(runCli(['events', 'append', 'deep', '--type', 'x', '--data', '{"a":1}'], { env }).code).toBe(0);
    const db = new Database(file);
    db.prepare(`UPDATE events SET data = ? WHERE stream = 'deep'`).run(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    db.close();
    service = await startServer(env);
  });
  afterAll(async () => service?.stop());

  it.each(['/all', '/streams/deep'])('GET %s answers 503 store_unavailable naming the damage', async (path) => {
    const response = await fetch(`${service.url}${path}`);
    expect(response.status).toBe(503);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: 'store_unavailable', details: { cause: 'LEDGER_DAMAGED' } });
    expect(error.message).toContain('nested too deep to write out');
  });

  it('a feed reaching it ends with an error frame carrying the same type (store_unavailable)', async () => {
    const { text } = await readRawSse(`${service.url}/subscribe?prefix=deep`, { until: () => false });
    const last = text.trim().split('\n\n').at(-1)!.split('\n');
    expect(last[0]).toBe('event: error');
    expect(JSON.parse(last[1]!.slice('data: '.length))).toMatchObject({ type: 'store_unavailable', message: expect.stringContaining('nested too deep to write out') });
  });

  it.each([['events', 'read', 'deep'], ['events', 'all']])('%s %s exits 4 with one line', (...args) => {
    const result = runCli(args, { env });
    expect(result.code).toBe(4);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('nested too deep to write out')]);
  });

  it('audit verify names the event', () => {
    const result = runCli(['audit', 'verify'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('deep@0: stored JSON does not parse: data nests deeper than 1000 levels');
  });
});

/**
 * The same damage in a session message: the read models skip the event as one they cannot decode
 * (outside test, session 15: the catalog faulted, its rebuild exited 0 still faulted, and every command
 * that reads it, deleting the damaged session among them, exited 4).
 */
describe('a session message stored nested too deep, for the read models', () => {
  const file = join(tempDir(), 'ledger.sqlite');
  const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
  const cli = (...args: string[]) => runCli(args, { env });
  beforeAll(() => {
    for (const id of ['deep1', 'other']) {
      expect(cli('sessions', 'start', '--id', id).code).toBe(0);
      expect(cli('messages', 'append', id, '--role', 'user', '--content', `hello from ${id}`).code).toBe(0);
    }
    const db = new Database(file);
    const row = db.prepare(`SELECT position, data FROM events WHERE stream = 'session-deep1' AND type = 'message.appended'`).get() as { position: number; data: string };
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run(row.data.replace(/}$/, `,"extra":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`), row.position);
    db.close();
  });

  it('projections rebuild ends ok; another session shows; the damaged one is deleted', () => {
    const rebuilt = cli('projections', 'rebuild', 'catalog', '--json');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.json()).toEqual([expect.objectContaining({ name: 'catalog', status: 'ok' })]);
    expect(cli('sessions', 'show', 'other').code).toBe(0);
    expect(cli('sessions', 'search', 'hello').code).toBe(0);
    const deleted = cli('sessions', 'delete', 'deep1', '--yes');
    expect(deleted.code).toBe(0);
    expect(deleted.stdout.trim()).toBe('deep1');
  });
});

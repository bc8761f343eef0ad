import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from '../support/cli.js';

const storeIn = (dir: string) => ({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` });

describe('session-ledger events and audit (CLI)', () => {
  it('appends with expected revisions and reports a conflict with exit 1', () => {
    const env = storeIn(tempDir());
    const first = runCli(['events', 'append', 'orders-1', '--type', 'placed', '--data', '{"n":1}', '--expected-revision', 'no_stream', '--json'], { env });
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ stream: 'orders-1', nextExpectedRevision: 0 });
    expect(runCli(['events', 'append', 'orders-1', '--type', 'paid', '--data', '{}', '--expected-revision', '0'], { env }).code).toBe(0);
    const stale = runCli(['events', 'append', 'orders-1', '--type', 'x', '--data', '{}', '--expected-revision', '0'], { env });
    expect(stale.code).toBe(1);
    expect(stale.stderr.trim().split('\n')).toHaveLength(1);
    expect(stale.stderr).toContain('expected 0, actual 1');
    const read = runCli(['events', 'read', 'orders-1', '--json'], { env });
    expect(read.json().map((e: { type: string }) => e.type)).toEqual(['placed', 'paid']);
    const backwards = runCli(['events', 'read', 'orders-1', '--backwards', '--json'], { env });
    expect(backwards.json().map((e: { revision: number }) => e.revision)).toEqual([1, 0]);
  });

  it('retrying an append with the same event id writes nothing', () => {
    const env = storeIn(tempDir());
    const id = '4b6f2f7e-8f1e-4c55-9d43-6f1f0c1a2b3c';
    const args = ['events', 'append', 's', '--type', 't', '--data', '1', '--id', id, '--expected-revision', 'no_stream'];
    const first = runCli(args, { env });
    expect([first.code, first.stderr]).toEqual([0, expect.stringContaining('appended to s at revision 0')]);
    const retry = runCli(args, { env });
    expect([retry.code, retry.stderr]).toEqual([0, expect.stringContaining('already stored: s at revision 0')]); // not "appended"
    expect(runCli(['events', 'read', 's', '--json'], { env }).json()).toHaveLength(1);
  });

  it('a message retried with its id says it was already stored, on stderr; stdout is the id both times', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 'r1'], { env }).code).toBe(0);
    const args = ['messages', 'append', 'r1', '--role', 'user', '--content', 'hi', '--id', 'm1'];
    const first = runCli(args, { env });
    expect([first.code, first.stdout, first.stderr]).toEqual([0, 'm1\n', expect.stringContaining('appended to r1@1')]);
    const retry = runCli(args, { env });
    expect([retry.code, retry.stdout, retry.stderr]).toEqual([0, 'm1\n', expect.stringContaining('already stored (a retry): nothing written to r1@1')]);
  });

  it('gives bad input a one-line error and the documented exit code, and changes nothing', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    runCli(['events', 'append', 's', '--type', 't', '--data', '{"keep":true}'], { env });
    const before = readFileSync(join(dir, 'ledger.sqlite'));
    const cases: Array<[string[], number, Record<string, string>]> = [
      [['events', 'append', 's', '--type', 't', '--data', '{nope'], 2, env],
      [['events', 'append', 's', '--type', 't', '--data', '1', '--expected-revision', 'soon'], 2, env],
      [['--store', 'ftp:x', 'events', 'read', 's'], 2, {}],
      [['events', 'read', 'missing'], 3, env],
      [['--store', `sqlite:${join(dir, 'absent.sqlite')}`, 'events', 'read', 's'], 4, {}],
      [['events', 'frobnicate'], 2, env],
    ];
    for (const [args, code, caseEnv] of cases) {
      const result = runCli(args, { env: caseEnv });
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readFileSync(join(dir, 'ledger.sqlite')).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite, and a SQLite file that is not a ledger, leaving both unchanged', () => {
    const dir = tempDir();
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello, not a database\n');
    const foreign = join(dir, 'state.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE sessions (id TEXT)');
    db.close();
    const foreignBefore = readFileSync(foreign);
    for (const file of [text, foreign]) {
      const result = runCli(['--store', `sqlite:${file}`, 'events', 'append', 's', '--type', 't', '--data', '1']);
      expect(result.code).toBe(4);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(text, 'utf8')).toBe('hello, not a database\n');
    expect(readFileSync(foreign).equals(foreignBefore)).toBe(true);
  });

  it('prints $all as JSON Lines from a position, and follows live appends', async () => {
    const env = storeIn(tempDir());
    for (const n of [1, 2, 3]) runCli(['events', 'append', `s-${n}`, '--type', 't', '--data', String(n)], { env });
    const lines = runCli(['events', 'all'], { env }).stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((event) => event.data)).toEqual([1, 2, 3]);
    const from = runCli(['events', 'all', '--from', String(lines[1].position)], { env }).stdout.trim().split('\n');
    expect(from.map((line) => JSON.parse(line).data)).toEqual([2, 3]);
    const follower = startCli(['events', 'all', '--follow'], env);
    try {
      await follower.waitFor((out) => out.trim().split('\n').length >= 3, 'history');
      runCli(['events', 'append', 's-4', '--type', 't', '--data', '4'], { env });
      await follower.waitFor((out) => out.includes('"data":4'), 'the live event');
      expect(follower.stdout().trim().split('\n').map((line) => JSON.parse(line).data)).toEqual([1, 2, 3, 4]);
    } finally {
      await follower.stop();
    }
  });

  it('audit verify catches one edited byte in the SQLite file, naming stream and revision', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    for (const n of [1, 2, 3]) runCli(['events', 'append', 'chat', '--type', 'said', '--data', JSON.stringify({ text: `hello ${n}` })], { env });
    expect(runCli(['audit', 'verify'], { env }).code).toBe(0);
    const db = new Database(join(dir, 'ledger.sqlite'));
    const row = db.prepare(`SELECT position, data FROM events WHERE stream = 'chat' AND revision = 1`).get() as { position: number; data: string };
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run(row.data.replace('hello 2', 'hellO 2'), row.position);
    db.close();
    const verify = runCli(['audit', 'verify', '--json'], { env });
    expect(verify.code).toBe(1);
    expect(verify.json()).toMatchObject({ ok: false, broken: { stream: 'chat', revision: 1 } });
    expect(verify.stderr).toContain('chat@1');
  });
});

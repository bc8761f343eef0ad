import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, newId, readWholeStream } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli } from '../support/cli.js';
import type { HermesFixture } from './fixtures/hermesDb.js';
import { buildCurrentEra, buildV2Era, tempDir, writeMemories } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

const setup = (build: (path: string) => HermesFixture = buildCurrentEra) => {
  const dir = tempDir();
  const h = build(join(dir, 'state.db'));
  open.push(h);
  const ledger = join(dir, 'ledger.sqlite');
  return { dir, h, ledger, env: { SESSION_LEDGER_STORE: `sqlite:${ledger}` } };
};

describe('session-ledger import hermes', () => {
  it('imports with --json, then a second run adds nothing', () => {
    const { h, env, dir } = setup();
    const memories = writeMemories(join(dir, 'memories'), ['Prefers short answers'], ['Lives in Zürich']);
    const first = runCli(['import', 'hermes', h.path, '--memories', memories, '--json'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ sessions: 7, segments: 2, messages: 55, compacted: 17, memoryEntries: 2, skipped: [] });
    const second = runCli(['import', 'hermes', h.path, '--memories', memories, '--json'], { env });
    expect(second.code).toBe(0);
    expect(second.json()).toMatchObject({ sessions: 0, segments: 0, messages: 0, compacted: 0, memoryEntries: 0, skipped: [] });
  });

  it('follows a file whose transcripts Hermes rewrote (`/retry`): exit 0, verified, the rewritten rows counted (outside test, session 27, F9)', () => {
    const dir = tempDir();
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` };
    const step = (n: number) => join(import.meta.dirname, 'fixtures', 'hermes-replace', `step${n}.db`);
    expect(runCli(['import', 'hermes', step(1)], { env }).code).toBe(0);
    const text = runCli(['import', 'hermes', step(2), '--verify'], { env });
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toMatch(/\d+ rows Hermes rewrote since taken out of the views/);
    expect(text.stdout).toContain('6 match, 0 differ');
    const json = runCli(['import', 'hermes', step(3), '--json'], { env });
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({ replaced: 8, updated: 3, skipped: [] });
  });

  it('exits 1 when it left source data out (a session id the ledger cannot take); a session deleted in the ledger is skipped with exit 0 (outside test, session 24)', () => {
    const { h, env } = setup();
    h.session({ id: 'not valid', title: 'a space in its id' });
    h.message('not valid', { role: 'user', content: 'this row cannot be imported' });
    const dry = runCli(['import', 'hermes', h.path, '--dry-run'], { env });
    expect([dry.code, dry.stderr]).toEqual([1, 'session-ledger: 1 session(s) of the source, 1 row(s), would not be imported (listed above): the ledger would hold less than the source\n']);
    // before, exit 0: a script running `import hermes && rm -rf ~/.hermes` lost this session
    const first = runCli(['import', 'hermes', h.path], { env });
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('skipped not valid (1 rows)');
    expect(first.stderr).toBe('session-ledger: 1 session(s) of the source, 1 row(s), were not imported (listed above): the ledger holds less than the source\n');
    expect(runCli(['sessions', 'show', 'inplace'], { env }).code).toBe(0);

    const clean = setup();
    expect(runCli(['import', 'hermes', clean.h.path], { env: clean.env }).code).toBe(0);
    expect(runCli(['sessions', 'delete', 'inplace', '--yes'], { env: clean.env }).code).toBe(0);
    const again = runCli(['import', 'hermes', clean.h.path, '--json'], { env: clean.env });
    expect(again.code).toBe(0);
    const { skipped } = again.json() as { skipped: Array<{ session: string; reason: string }> };
    expect(skipped.map((skip) => skip.session)).toContain('inplace');
    expect(new Set(skipped.map((skip) => skip.reason))).toEqual(new Set(['the session was deleted in the ledger']));

    // Hermes went on with the session after the ledger deleted it: those rows are not in the ledger.
    // Before, this was skipped with exit 0 too (outside test, session 24, E-6).
    clean.h.message('inplace', { role: 'user', content: 'written in Hermes after the ledger deleted the session' });
    const later = runCli(['import', 'hermes', clean.h.path], { env: clean.env });
    expect(later.code).toBe(1);
    expect(later.stdout).toMatch(/skipped inplace \(\d+ rows\): the session was deleted in the ledger at \d+ event\(s\), and the source has 1 more since: they are not in the ledger/);
    expect(runCli(['import', 'hermes', clean.h.path, '--dry-run'], { env: clean.env }).code).toBe(1);
  });

  it('lists a session Hermes deleted since an earlier import, exit 0, and keeps it (outside test, session 27, F2)', () => {
    const { h, env } = setup();
    expect(runCli(['import', 'hermes', h.path], { env }).code).toBe(0);
    // Hermes' delete_session: the session and, cascading, the delegate it spawned.
    for (const id of ['delegate-child', 'inplace']) {
      h.db.prepare('DELETE FROM messages WHERE session_id = ?').run(id);
      h.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
    }
    const text = runCli(['import', 'hermes', h.path], { env });
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toContain('\nno longer in the file inplace: an earlier import brought it in; the ledger keeps it (sessions delete removes it)');
    expect(text.stdout).toContain('\nno longer in the file delegate-child: ');
    const json = runCli(['import', 'hermes', h.path, '--json'], { env }).json() as { noLongerInSource: string[]; skipped: unknown[] };
    expect([json.noLongerInSource.sort(), json.skipped]).toEqual([['delegate-child', 'inplace'], []]);
    expect(runCli(['sessions', 'show', 'inplace'], { env }).code).toBe(0);
    // Its receipt is the ledger's own: no raw append can forge one.
    const stream = (runCli(['events', 'all'], { env }).stdout.match(/"stream":"(ledger-import-hermes-[0-9a-f]+)"/) ?? [])[1];
    expect(stream).toBeDefined();
    const forged = runCli(['events', 'append', stream!, '--type', 'hermes.sessions_received', '--data', '{"sessionIds":["x"]}'], { env });
    expect(forged.code).toBe(2);
  });

  it('a source it refuses (missing, not SQLite) leaves no new ledger file behind (outside test, session 24)', () => {
    const { env, ledger, dir } = setup();
    writeFileSync(join(dir, 'junk.db'), 'not a database at all '.repeat(20));
    for (const path of [join(dir, 'missing.db'), join(dir, 'junk.db')]) {
      expect(runCli(['import', 'hermes', path], { env }).code).toBe(2);
      expect(existsSync(ledger)).toBe(false);
    }
  });

  it('--dry-run reports what it would import and creates no ledger', () => {
    const { h, env, ledger } = setup(buildV2Era);
    const result = runCli(['import', 'hermes', h.path, '--dry-run', '--json'], { env });
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ dryRun: true, sessions: 3, messages: 14 });
    expect(existsSync(ledger)).toBe(false);
  });

  it('--verify exits 0 when every conversation matches and 1, naming it, when one differs', async () => {
    const { h, env, ledger } = setup();
    const ok = runCli(['import', 'hermes', h.path, '--verify'], { env });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('5 match, 0 differ');
    const store = openSqliteStore(ledger);
    const events = await readWholeStream(store, sessionStream('rewound'));
    const first = events.find((e) => e.type === 'message.appended')!.data as { messageId: string };
    await createLedger(store).append(
      sessionStream('rewound'),
      [{ id: newId(), type: 'message.rewritten', data: { messageId: first.messageId, content: 'changed', rewrittenAt: new Date().toISOString() } }],
      { expectedRevision: events.at(-1)!.revision },
    );
    await store.close();
    const bad = runCli(['import', 'hermes', h.path, '--verify'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/rewound: messages \(source \d+, ledger \d+\): first difference at #1/);
  });

  it('refuses a missing file, a non-database and another program’s database with one line and exit 2', () => {
    const { dir, env } = setup(buildV2Era);
    writeFileSync(join(dir, 'notes.txt'), 'hello '.repeat(200));
    const cases: Array<[string[], RegExp]> = [
      [['import', 'hermes', join(dir, 'absent.db')], /no such file/],
      [['import', 'hermes', join(dir, 'notes.txt')], /not a SQLite database/],
    ];
    for (const [args, message] of cases) {
      const result = runCli(args, { env });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
    runCli(['events', 'append', 'x', '--type', 't', '--data', '{}'], { env });
    const other = runCli(['import', 'hermes', env.SESSION_LEDGER_STORE.slice('sqlite:'.length)], { env: { SESSION_LEDGER_STORE: 'memory:' } });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/not a Hermes state.db/);
  });

  it('reports a rollback-journal file held by a writer as locked', () => {
    const { h, env } = setup(buildV2Era);
    h.db.exec('BEGIN EXCLUSIVE');
    h.db.prepare("INSERT INTO sessions (id, source, started_at) VALUES ('held', 'cli', 1)").run();
    const result = runCli(['import', 'hermes', h.path, '--busy-timeout', '100'], { env });
    h.db.exec('ROLLBACK');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/locked/);
  });
});

describe('session-ledger import hermes: arguments checked before anything is written', () => {
  it('refuses a --memories path that is not a directory and an invalid --profile, writing no event', () => {
    const { h, env, dir } = setup(buildV2Era);
    for (const args of [
      ['--memories', join(dir, 'no-such-dir')],
      ['--memories', h.path],
      ['--memories', dir, '--profile', '../evil'],
    ]) {
      const result = runCli(['import', 'hermes', h.path, ...args], { env });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const all = runCli(['events', 'all'], { env });
    expect(all.stdout.trim()).toBe('');
  });
});

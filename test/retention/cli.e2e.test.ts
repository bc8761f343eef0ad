import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { beginTurn, startSession } from '@session-ledger/sessions';
import { runCli, tempDir } from '../support/cli.js';
import { buildConversation, COVERED, writerOn } from './helpers.js';

const DAY = 86_400_000;

/** A ledger file holding the test conversation, written through the library with a clock `ago` ms in the past. */
const seeded = async (extra?: (writer: ReturnType<typeof writerOn>) => Promise<void>, ago = 40 * DAY) => {
  const dir = tempDir('retention-cli-');
  const file = join(dir, 'ledger.sqlite');
  const store = openSqliteStore(file);
  const writer = writerOn(store, new Date(Date.now() - ago).toISOString());
  await buildConversation(writer.context);
  await extra?.(writer);
  await store.close();
  return { dir, file, env: { SESSION_LEDGER_STORE: `sqlite:${file}` } };
};

const streamsIn = async (file: string) => {
  const store = openSqliteStore(file, { create: false });
  try {
    return (await store.listStreams!()).map(({ name, tombstoned }) => ({ name, tombstoned }));
  } finally {
    await store.close();
  }
};

const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);

describe('sessions export | delete | prune | import (CLI)', { timeout: 180_000 }, () => {
  it('export --json prints {file, format, view, digest, streams, deleted}; without --out the export goes to stdout', async () => {
    const { dir, env } = await seeded();
    const out = join(dir, 'root.md');

    const result = runCli(['sessions', 'export', 'root-2', '--format', 'markdown', '--out', out, '--json'], { env });

    expect(result.code).toBe(0);
    const json = result.json();
    expect(json).toMatchObject({ file: out, format: 'markdown', view: 'display', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), deleted: [] });
    expect(json.streams.map((s: { stream: string }) => s.stream)).toEqual(COVERED);
    expect(json.streams[0]).toEqual({ stream: 'session-root', revision: expect.any(Number), chainHead: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const stdout = runCli(['sessions', 'export', 'root', '--format', 'qmd'], { env });
    expect(stdout.code).toBe(0);
    expect(stdout.stdout).toMatch(/^---\ntitle: "Conversation root"\nsession-ledger:\n {2}kind: "manifest"/);
    expect(stdout.stdout).toContain(`digest: "${json.digest}"`);
  });

  it('export --delete-after-verified deletes and prints exactly the streams; audit verify passes', async () => {
    const { dir, file, env } = await seeded();
    const out = join(dir, 'root.html');

    const result = runCli(['sessions', 'export', 'root', '--format', 'html', '--out', out, '--delete-after-verified', '--json'], { env });

    expect(result.code).toBe(0);
    expect([...result.json().deleted].sort()).toEqual([...COVERED].sort());
    expect(readFileSync(out, 'utf8')).toContain('&lt;script&gt;');
    const streams = await streamsIn(file);
    expect(streams.filter((s) => s.tombstoned).map((s) => s.name).sort()).toEqual([...COVERED].sort());
    expect(streams.find((s) => s.name === 'session-br')).toEqual({ name: 'session-br', tombstoned: false });
    const text = runCli(['sessions', 'export', 'br', '--format', 'markdown', '--out', join(dir, 'br.md'), '--delete-after-verified'], { env });
    expect(text.stdout).toContain('deleted: session-br');
    const audit = runCli(['audit', 'verify', '--json'], { env });
    expect(audit.code).toBe(0);
    expect(audit.json()).toMatchObject({ ok: true, broken: null });
  });

  it('a live turn: "Cannot delete active session ID", exit 1, no file, nothing deleted', async () => {
    const { dir, file, env } = await seeded((w) => beginTurn(w.context, 'sub', { ttlMs: 60 * DAY }).then(() => undefined));
    const out = join(dir, 'root.md');

    const result = runCli(['sessions', 'export', 'root', '--format', 'markdown', '--out', out, '--delete-after-verified'], { env });

    expect(result.code).toBe(1);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/^session-ledger: Cannot delete active session root: /);
    expect(existsSync(out)).toBe(false);
    const single = runCli(['sessions', 'delete', 'root', '--yes'], { env });
    expect(single.code).toBe(1);
    expect(single.stderr).toContain('Cannot delete active session root');
    expect((await streamsIn(file)).every((s) => !s.tombstoned)).toBe(true);
  });

  it('--only with --delete-after-verified is refused up front: exit 2, nothing written, nothing deleted', async () => {
    const { dir, file, env } = await seeded();
    const out = join(dir, 'only.md');

    const result = runCli(['sessions', 'export', 'root', '--format', 'markdown', '--only', 'user', '--out', out, '--delete-after-verified'], { env });

    expect(result.code).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toContain('never authorises a deletion');
    expect(existsSync(out)).toBe(false);
    expect((await streamsIn(file)).every((s) => !s.tombstoned)).toBe(true);
    const filtered = runCli(['sessions', 'export', 'root', '--format', 'markdown', '--only', 'user,tool', '--out', out, '--json'], { env });
    expect(filtered.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('  filtered: true\n  only:\n    - "user"\n    - "tool"\n');
  });

  it('delete ID... deletes the idle ones and reports skipped_active (exit 1 when any id was not deleted)', async () => {
    const { file, env } = await seeded(async (w) => {
      await startSession(w.context, { id: 'busy' });
      await beginTurn(w.context, 'busy', { ttlMs: 60 * DAY });
      await startSession(w.context, { id: 'idle' });
    });

    const mixed = runCli(['sessions', 'delete', 'root', 'busy', 'idle', '--json', '--yes'], { env });
    expect(mixed.code).toBe(1);
    expect(mixed.json()).toMatchObject({ deleted: ['root', 'idle'], skipped_active: ['busy'] });
    expect(mixed.stderr).toContain('Cannot delete active session busy');
    const clean = runCli(['sessions', 'delete', 'br', '--json', '--yes'], { env });
    expect(clean.code).toBe(0);
    expect(clean.json()).toMatchObject({ deleted: ['br'], skipped_active: [] });
    const tombstoned = (await streamsIn(file)).filter((s) => s.tombstoned).map((s) => s.name);
    expect(tombstoned.sort()).toEqual([...COVERED, 'session-br', 'session-idle'].sort());
  });

  it('delete A B after A was deleted (a re-run after a kill): B is deleted, A is already_deleted, exit 0', async () => {
    const { env } = await seeded(async (w) => {
      await startSession(w.context, { id: 'idle' });
    });
    expect(runCli(['sessions', 'delete', 'root', '--yes'], { env }).code).toBe(0);
    const rerun = runCli(['sessions', 'delete', 'root', 'idle', '--json', '--yes'], { env });
    expect([rerun.code, rerun.stderr]).toEqual([0, '']);
    expect(rerun.json()).toMatchObject({ deleted: ['idle'], already_deleted: ['root'], skipped_active: [], failed: [] });
    const text = runCli(['sessions', 'delete', 'root', 'idle', '--yes'], { env });
    expect([text.code, text.stdout, text.stderr]).toEqual([0, '', 'deleted: 0, already_deleted: 2, skipped_active: 0\n']);
  });

  it('prune --older-than 30d [--dry-run] never deletes a live conversation', async () => {
    const { file, env } = await seeded(async (w) => {
      await startSession(w.context, { id: 'old-live' });
      await beginTurn(w.context, 'old-live', { ttlMs: 60 * DAY });
    });

    const dry = runCli(['sessions', 'prune', '--older-than', '30d', '--dry-run', '--json'], { env });
    expect(dry.code).toBe(0);
    expect(dry.json()).toMatchObject({ deleted: ['br', 'root'], skipped_active: ['old-live'], dryRun: true });
    expect((await streamsIn(file)).every((s) => !s.tombstoned)).toBe(true);
    expect(runCli(['sessions', 'prune', '--older-than', '60d', '--json', '--yes'], { env }).json()).toMatchObject({ deleted: [], skipped_active: [] });

    const pruned = runCli(['sessions', 'prune', '--older-than', '30d', '--json', '--yes'], { env });
    expect(pruned.code).toBe(0);
    expect(pruned.json()).toMatchObject({ deleted: ['br', 'root'], skipped_active: ['old-live'] });
    const streams = await streamsIn(file);
    expect(streams.find((s) => s.name === 'session-old-live')?.tombstoned).toBe(false);
    expect(streams.find((s) => s.name === 'session-root')?.tombstoned).toBe(true);
  });

  it('import FILE restores a jsonl export into a store that lacks it; refuses one that has it (exit 1) and a tampered file (exit 2)', async () => {
    const { dir, env } = await seeded();
    const out = join(dir, 'root.jsonl');
    expect(runCli(['sessions', 'export', 'root', '--format', 'jsonl', '--out', out, '--delete-after-verified'], { env }).code).toBe(0);
    const fresh = { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'fresh.sqlite')}` };

    const imported = runCli(['sessions', 'import', out, '--json'], { env: fresh });
    expect(imported.code).toBe(0);
    expect(imported.json().streams.map((s: { stream: string }) => s.stream)).toEqual(COVERED);
    expect(runCli(['audit', 'verify'], { env: fresh }).code).toBe(0);
    const again = runCli(['sessions', 'import', out], { env: fresh });
    expect(again.code).toBe(1);
    oneLine(again.stderr);
    expect(runCli(['sessions', 'import', out], { env }).code).toBe(1);
    const tampered = join(dir, 'tampered.jsonl');
    writeFileSync(tampered, readFileSync(out, 'utf8').replace('after the compression', 'after the Compression'));
    const refused = runCli(['sessions', 'import', tampered], { env: { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'other.sqlite')}` } });
    expect(refused.code).toBe(2);
    oneLine(refused.stderr);
    expect(refused.stderr).toContain('digest');
  });

  it('bad input gets a one-line error and the documented exit code, and changes nothing', async () => {
    const { dir, file, env } = await seeded();
    const existing = join(dir, 'existing.md');
    writeFileSync(existing, 'keep');
    // The ledger was written without the read models: the first command to open it builds the catalog
    // (derived tables, not stored data). After that, bad input must change nothing.
    expect(runCli(['projections', 'status'], { env }).code).toBe(0);
    const before = readFileSync(file);
    const cases: Array<[string[], number]> = [
      [['sessions', 'export', 'root', '--format', 'pdf', '--out', join(dir, 'a')], 2],
      [['sessions', 'export', 'root', '--format', 'markdown', '--lineage', 'sideways'], 2],
      [['sessions', 'export', 'root', '--format', 'markdown', '--only', 'robot'], 2],
      [['sessions', 'export', 'root', '--format', 'jsonl', '--view', 'display', '--out', join(dir, 'b')], 2],
      [['sessions', 'export', 'root', '--format', 'markdown', '--delete-after-verified'], 2],
      [['sessions', 'export', 'root', '--out', join(dir, 'c')], 2],
      [['sessions', 'export', 'nobody', '--format', 'markdown', '--out', join(dir, 'd')], 3],
      [['sessions', 'export', 'root', '--format', 'markdown', '--out', existing, '--delete-after-verified'], 1],
      [['sessions', 'export', 'root', '--format', 'markdown', '--out', join(dir, 'no', 'such', 'dir.md')], 2],
      // A directory is not an export file: bad input, not a conflict ("Export file exists", exit 1, before).
      [['sessions', 'export', 'root', '--format', 'markdown', '--out', dir, '--delete-after-verified'], 2],
      [['sessions', 'export', 'root', '--format', 'markdown', '--out', `${dir}/`], 2],
      [['sessions', 'prune', '--older-than', 'soon'], 2],
      [['sessions', 'import', join(dir, 'missing.jsonl')], 2],
    ];
    for (const [args, code] of cases) {
      const result = runCli(args, { env });
      expect({ args, code: result.code }).toEqual({ args, code });
      oneLine(result.stderr);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readFileSync(existing, 'utf8')).toBe('keep');
    expect((await streamsIn(file)).every((s) => !s.tombstoned)).toBe(true);
    expect(readFileSync(file).length).toBe(before.length);
  });
});

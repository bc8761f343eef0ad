import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { CLI, runCli, tempDir } from '../support/cli.js';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The CLI on a pseudo-terminal (util-linux `script`): stdin, stdout and stderr are a TTY; `input` is
 * typed into it. Returns the exit code and everything the terminal showed.
 */
const onTerminal = (args: string[], input: string, env: Record<string, string>) => {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    input,
    env: { ...process.env, ...env, SESSION_LEDGER_DEBUG: '' },
    timeout: 60_000,
  });
  return { code: result.status, screen: result.stdout };
};

const seeded = () => {
  const dir = tempDir();
  const file = join(dir, 'ledger.sqlite');
  const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
  const ids = ['first', 'second'].map((id) => runCli(['sessions', 'start', '--id', id], { env }).stdout.trim());
  return { file, env, ids };
};

const tombstoned = async (file: string): Promise<string[]> => {
  const store = openSqliteStore(file, { create: false });
  try {
    return (await store.listStreams!()).filter((s) => s.tombstoned).map((s) => s.name).sort();
  } finally {
    await store.close();
  }
};

describe('destructive commands ask on a terminal, need --yes elsewhere (CLI)', () => {
  it('sessions delete on a terminal asks "Delete ... N session(s) (ids)? [y/N]"; no (or nothing) deletes nothing, exit 1', async () => {
    const { file, env, ids } = seeded();
    for (const answer of ['n\n', '\n', 'whatever\n', '']) {
      const refused = onTerminal(['sessions', 'delete', ...ids], answer, env);
      expect(refused.screen).toContain('Delete every segment and delegated child of 2 session(s) (first, second)? Nothing is exported first. [y/N]');
      expect(refused.screen).toContain('cancelled: nothing deleted');
      expect(refused.code).toBe(1);
    }
    expect(await tombstoned(file)).toEqual([]);
  });

  it('sessions delete on a terminal deletes after y or yes', async () => {
    const { file, env } = seeded();
    for (const [id, answer] of [['first', 'y\n'], ['second', 'YES\n']] as const) {
      const deleted = onTerminal(['sessions', 'delete', id], answer, env);
      expect(deleted.screen).toContain(`(${id})? Nothing is exported first. [y/N]`);
      expect(deleted.code).toBe(0);
    }
    expect(await tombstoned(file)).toEqual(['session-first', 'session-second']);
  });

  it('sessions delete and prune off a terminal: refused with exit 2 and one line naming --yes, nothing deleted; --yes deletes', async () => {
    const { file, env } = seeded();
    for (const args of [['sessions', 'delete', 'first'], ['sessions', 'prune', '--older-than', '1ms']]) {
      const refused = runCli(args, { env, input: 'y\n' });
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringContaining('give --yes to confirm')]);
    }
    expect(await tombstoned(file)).toEqual([]);
    expect(runCli(['sessions', 'prune', '--older-than', '1ms', '--dry-run'], { env }).code).toBe(0);
    expect(await tombstoned(file)).toEqual([]);
    const deleted = runCli(['sessions', 'delete', 'first', '--yes'], { env });
    expect([deleted.code, deleted.stdout]).toEqual([0, 'first\n']);
    const pruned = runCli(['sessions', 'prune', '--older-than', '1ms', '-y'], { env });
    expect([pruned.code, pruned.stdout]).toEqual([0, 'second\n']);
    expect(await tombstoned(file)).toEqual(['session-first', 'session-second']);
  });

  it('sessions prune on a terminal names what it would delete and deletes only after yes', async () => {
    const { file, env } = seeded();
    const refused = onTerminal(['sessions', 'prune', '--older-than', '1ms'], 'n\n', env);
    // most recent activity first
    expect(refused.screen).toContain('Delete 2 session(s) idle for longer than 1ms (second, first)? Nothing is exported first. [y/N]');
    expect(refused.code).toBe(1);
    expect(await tombstoned(file)).toEqual([]);
    expect(onTerminal(['sessions', 'prune', '--older-than', '1ms'], 'y\n', env).code).toBe(0);
    expect(await tombstoned(file)).toEqual(['session-first', 'session-second']);
  });
});

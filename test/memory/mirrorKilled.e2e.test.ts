import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const KILLER = fileURLToPath(new URL('./fixtures/killAfterRename.cjs', import.meta.url));

/**
 * The mirror's first fill writes a marker, MEMORY.md, USER.md, then the mapping. Killed after any of
 * those renames, its directory held its own partial fill, which the next start took for Hermes'
 * foreign files: parked for good (outside test, session 26). Now every such restart converges.
 */
describe('Markdown mirror: kill -9 during the first fill, then run again', () => {
  it.each([1, 2, 3, 4])('killed after rename %i: the next run fills the directory with the profile and follows', (at) => {
    const home = tempDir();
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(home, 'ledger.sqlite')}` };
    const dir = join(home, 'memories');
    for (const [target, content] of [['memory', 'm1'], ['user', 'u1']]) expect(runCli(['memory', 'add', '--target', target!, '--content', content!], { env }).code).toBe(0);
    const killed = runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env: { ...env, NODE_OPTIONS: `--require ${KILLER}`, KILL_DIR: dir, KILL_AT: String(at) } });
    expect(killed.code).toBe(-1);
    // A mutation committed before the restart (the partial fill is then older than the profile).
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'm2'], { env }).code).toBe(0);

    const again = runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect([readFileSync(join(dir, 'MEMORY.md'), 'utf8'), readFileSync(join(dir, 'USER.md'), 'utf8')]).toEqual(['m1\n§\nm2', 'u1']);
    expect(existsSync(join(dir, '.session-ledger-mirror.filling'))).toBe(false);
  });
});

/**
 * A batch is one atomic append; before, the mirror wrote MEMORY.md after each of its operations, so a
 * kill -9 between them (or Hermes reading then) left a state the ledger never held: here both long
 * entries, over Hermes' 2,200-character budget (outside test, session 26, F3).
 */
describe('Markdown mirror: kill -9 while it writes a batch', () => {
  it("killed after the batch's first rename, MEMORY.md holds the state before or after the batch, never one between", () => {
    const home = tempDir();
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(home, 'ledger.sqlite')}` };
    const dir = join(home, 'memories');
    const [a, b] = ['A'.repeat(2000), 'B'.repeat(1500)];
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', a], { env }).code).toBe(0);
    expect(runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env }).code).toBe(0);
    const batch = JSON.stringify([{ op: 'add', target: 'memory', content: b }, { op: 'remove', target: 'memory', old: 'AAAA' }]);
    expect(runCli(['memory', 'apply', '--file', '-'], { env, input: batch }).code).toBe(0);

    const killed = runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env: { ...env, NODE_OPTIONS: `--require ${KILLER}`, KILL_DIR: dir, KILL_AT: '1' } });
    expect(killed.code).toBe(-1);
    expect([a, b]).toContain(readFileSync(join(dir, 'MEMORY.md'), 'utf8'));

    const again = runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(b);
  });
});

/** Killed between a temporary file and its rename, a write left `.MEMORY.md.PID.HEX.tmp` in Hermes' directory for good (outside test, session 26, F8). */
describe('Markdown mirror: kill -9 before a rename', () => {
  it.each([1, 2])('killed before rename %i of a write: the next write removes the temporary file, and leaves files it does not own', (at) => {
    const home = tempDir();
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(home, 'ledger.sqlite')}` };
    const dir = join(home, 'memories');
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'm1'], { env }).code).toBe(0);
    expect(runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env }).code).toBe(0);
    writeFileSync(join(dir, '.mem_hermes.tmp'), 'a temporary file of Hermes');
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'm2'], { env }).code).toBe(0);
    const killed = runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env: { ...env, NODE_OPTIONS: `--require ${KILLER}`, KILL_DIR: dir, KILL_AT: String(at), KILL_BEFORE: '1' } });
    expect(killed.code).toBe(-1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp')).length).toBe(2);

    const again = runCli(['memory', 'providers', 'run', '--mirror', dir, '--once'], { env });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('m1\n§\nm2');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual(['.mem_hermes.tmp']);
  });
});

import { existsSync, readFileSync } from 'node:fs';
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

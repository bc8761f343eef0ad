import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

/**
 * `sessions start --id -dash` printed the hint `sessions resume -dash`, which failed with "unknown
 * option" (outside test, session 23). The hint puts such an id after `--`, and that works.
 */
describe('a session id beginning with -', () => {
  it('gets a resume hint a shell can run as printed', () => {
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
    const started = runCli(['sessions', 'start', '--id', '-dash'], { env });
    expect(started.code).toBe(0);
    expect(started.stderr).toContain('resume with: session-ledger sessions resume -- -dash');
    const resumed = runCli(['sessions', 'resume', '--', '-dash'], { env });
    expect(resumed.code).toBe(0);
    expect(runCli(['sessions', 'start', '--id', 'plain'], { env }).stderr).toContain('sessions resume plain\n');
  });
});

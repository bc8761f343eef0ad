import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

/**
 * `sessions delete "$ID" --yes` with an unset variable: the empty selector matched the conversation
 * titled "" by its exact title, and deleted it (outside test, session 23). Every command that takes
 * a session refuses an empty or blank one as bad input, and nothing is written or destroyed.
 */
describe('an empty session selector', () => {
  it('is refused (exit 2, one line) by every session command, and the conversation titled "" is untouched', () => {
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
    const id = runCli(['sessions', 'start', '--title', ''], { env }).stdout.trim();
    expect(runCli(['messages', 'append', id, '--role', 'user', '--content', 'important'], { env }).code).toBe(0);

    for (const selector of ['', ' ']) {
      for (const args of [
        ['sessions', 'delete', selector, '--yes'],
        ['sessions', 'show', selector],
        ['sessions', 'export', selector, '--format', 'jsonl', '--out', join(tempDir(), 'x.jsonl'), '--delete-after-verified'],
        ['messages', 'append', selector, '--role', 'user', '--content', 'lost?'],
      ]) {
        const result = runCli(args, { env });
        expect({ args, code: result.code }).toEqual({ args, code: 2 });
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/session selector is (empty|blank)/);
      }
    }
    const emptyOut = runCli(['sessions', 'export', id, '--format', 'jsonl', '--out', ''], { env });
    expect({ code: emptyOut.code, stderr: emptyOut.stderr }).toEqual({ code: 2, stderr: 'session-ledger: --out is empty: name the export file\n' });
    const shown = runCli(['--json', 'sessions', 'show', id], { env });
    expect(shown.code).toBe(0);
    expect(JSON.stringify(shown.json())).toContain('important');
    expect(JSON.stringify(shown.json())).not.toContain('lost?');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const HIGHEST = '9223372036854775807';
const PAST = '9223372036854775808';

/** The CLI's positions and revisions have the HTTP service's bound: a whole number below 2^63. */
describe('CLI: positions and revisions at and past 2^63', () => {
  it('reads from the highest position and revision (nothing there), and refuses 2^63 as bad input (exit 2), not an internal error', () => {
    const dir = tempDir();
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` };
    expect(runCli(['events', 'append', 's', '--type', 't', '--data', '1'], { env }).code).toBe(0);
    const before = readFileSync(join(dir, 'ledger.sqlite'));
    for (const args of [
      ['events', 'all', '--from', HIGHEST],
      ['events', 'read', 's', '--from', HIGHEST],
    ]) {
      const result = runCli(args, { env });
      expect({ args, code: result.code, stdout: result.stdout.trim() }).toEqual({ args, code: 0, stdout: '' });
    }
    for (const args of [
      ['events', 'all', '--from', PAST],
      ['events', 'all', '--from', PAST, '--follow'],
      ['events', 'read', 's', '--from', PAST],
      ['events', 'read', 's', '--backwards', '--from', PAST],
      ['events', 'append', 's', '--type', 't', '--data', '1', '--expected-revision', PAST],
      ['audit', 'prove', 's', PAST],
    ]) {
      const result = runCli(args, { env });
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length, says: /below 2\^63/.test(result.stderr) }).toEqual({ args, code: 2, lines: 1, says: true });
    }
    expect(readFileSync(join(dir, 'ledger.sqlite')).equals(before)).toBe(true);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

/**
 * `sessions delete dupdel1 dupd dt` (its id, a prefix and its title) reported one deletion three
 * times: `deleted` held the id thrice and the tally said 3 (outside test, session 23). A script
 * counting deletions got a wrong number.
 */
describe('sessions delete with several selectors of one session', () => {
  it('deletes it once and reports it once', () => {
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` };
    expect(runCli(['sessions', 'start', '--id', 'dupdel1', '--title', 'dt'], { env }).code).toBe(0);
    expect(runCli(['sessions', 'start', '--id', 'other'], { env }).code).toBe(0);

    const result = runCli(['--json', 'sessions', 'delete', 'dupdel1', 'dupd', 'dt', 'dupdel1', 'other', '--yes'], { env });

    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ deleted: ['dupdel1', 'other'], already_deleted: [], skipped_active: [], failed: [], streams: ['session-dupdel1', 'session-other'] });
  });
});

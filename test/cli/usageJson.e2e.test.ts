import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/**
 * With --json, a refusal of the option parser (an unknown option or command, a missing argument)
 * printed nothing on stdout, while every other bad input prints {"error": ...}: `… --json | jq` got
 * empty input (outside test, session 23).
 */
describe('--json and the parser\'s refusals', () => {
  it.each([
    [['--json', 'sessions', 'start', '--bogus'], "unknown option '--bogus'"],
    [['--json', 'messages', 'append', 's1', '--content', 'x'], "required option '--role <role>' not specified"],
    [['--json', 'sessions', 'show'], "missing required argument 'id'"],
    [['--json', 'bogus'], "unknown command 'bogus'"],
    [['sessions', '--json', 'start', '--bogus'], "unknown option '--bogus'"],
  ])('%j: exit 2, one JSON error document on stdout, one line on stderr', (args, message) => {
    const result = runCli(args, { env: { SESSION_LEDGER_STORE: 'memory:' } });
    expect(result.code).toBe(2);
    expect(result.json()).toEqual({ error: { type: 'invalid_input', message, details: {} } });
    expect(result.stderr).toBe(`session-ledger: ${message}\n`);
  });

  it('without --json, stdout stays empty', () => {
    const result = runCli(['sessions', 'start', '--bogus'], { env: { SESSION_LEDGER_STORE: 'memory:' } });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
  });
});

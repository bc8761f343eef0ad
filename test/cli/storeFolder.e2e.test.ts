import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolder } from '@session-ledger/core';
import { runCli, tempDir } from '../support/cli.js';

/**
 * A store whose folder cannot be made: `SESSION_LEDGER_HOME=/proc/nope session-ledger sessions start`
 * never returned, at full CPU (Node 20's recursive mkdirSync loops there), and a file on the path was
 * an internal error, exit 70 (outside test, session 23).
 */
describe('a store folder that cannot be made', () => {
  const file = join(tempDir(), 'a-file');
  writeFileSync(file, 'x');

  it.each([
    [{ SESSION_LEDGER_HOME: '/proc/nope' }, 'Cannot create the folder /proc/nope: ENOENT'],
    [{ SESSION_LEDGER_STORE: 'sqlite:/proc/nope/deeper/x.sqlite' }, 'Cannot create the folder /proc/nope: ENOENT'],
    [{ SESSION_LEDGER_STORE: `sqlite:${file}/x.sqlite` }, `Cannot create the folder ${file}: a file is there`],
  ])('%j: exit 4 in one line, at once', (env, message) => {
    const result = runCli(['sessions', 'start'], { env: { SESSION_LEDGER_STORE: '', ...env } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 4, stderr: `session-ledger: ${message}\n` });
  });

  it('makeFolder makes every missing folder, and again is a no-op', () => {
    const deep = join(tempDir(), 'a', 'b', 'c');
    makeFolder(deep);
    makeFolder(deep);
    expect(runCli(['--store', `sqlite:${join(deep, 'x.sqlite')}`, 'sessions', 'start']).code).toBe(0);
  });
});

import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { versionFourFile } from '../store-sqlite/versionFourFile.js';

const EVENTS = 3 + 45_000;

/** The CLI under a pseudo-terminal (util-linux `script`), as a person runs it; its whole output. */
const onTerminal = (args: string[]): string => {
  const { CI: _ci, ...env } = process.env; // a CI variable silences bars (progress.ts)
  const command = [process.execPath, CLI, ...args].map((part) => `'${part}'`).join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...env, SESSION_LEDGER_DEBUG: '' }, timeout: 60_000 });
  expect(result.status).toBe(0);
  return result.stdout;
};

describe('opening a ledger file of an older schema shows the migration on a terminal, and only there', () => {
  let source: string;
  beforeAll(() => {
    source = join(tempDir('sl-migration-'), 'v4.sqlite');
    versionFourFile(source, EVENTS - 3);
  });
  const copy = () => {
    const file = join(tempDir('sl-migration-'), 'ledger.sqlite');
    copyFileSync(source, file);
    return `sqlite:${file}`;
  };

  it('a terminal sees the bar reach every event of the file', () => {
    const output = onTerminal(['--store', copy(), 'sessions', 'list']);
    expect(output).toContain('upgrading the ledger file [');
    expect(output).toContain(`${EVENTS}/${EVENTS} events`);
  });

  it('a pipe and --json see no bar, and the command answers as usual', () => {
    const piped = runCli(['--store', copy(), 'sessions', 'list']);
    expect([piped.code, piped.stderr]).toEqual([0, '']);
    const json = onTerminal(['--store', copy(), '--json', 'sessions', 'list']);
    expect(json).not.toContain('upgrading');
  });
});

import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { createProgram } from '@session-ledger/cli';
import { runCli } from '../support/cli.js';

const EXIT_CODES = ['0', '1', '2', '3', '4', '70'];

describe('help, usage and exit codes (CLI)', () => {
  it('bare session-ledger (and a bare command group) exits 2 with usage on stderr, nothing on stdout', () => {
    for (const args of [[], ['sessions'], ['memory', 'providers']]) {
      const result = runCli(args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^Usage: session-ledger/);
    }
  });

  it('--help prints examples, environment variables and the whole exit-code table on stdout, exit 0', () => {
    const result = runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const text = result.stdout;
    expect(text).toContain('Examples:\n  ID=$(session-ledger sessions start');
    for (const name of ['SESSION_LEDGER_STORE', 'SESSION_LEDGER_HOME', 'SESSION_LEDGER_TOKEN', 'SESSION_LEDGER_DEBUG', 'SESSION_LEDGER_MEMORY_MIRROR']) {
      expect(text).toMatch(new RegExp(`Environment:[\\s\\S]*\\n  ${name} `));
    }
    const table = text.slice(text.indexOf('Exit codes:\n'));
    expect(table.trimEnd().split('\n').slice(1).map((line) => line.trim().split(/\s+/, 1)[0])).toEqual(EXIT_CODES);
    expect(table).toMatch(/\n  70 +internal error/);
  });

  it('every option of every command has a description', () => {
    const missing: string[] = [];
    const walk = (command: Command, path: string) => {
      for (const option of command.options) if (!option.description) missing.push(`${path} ${option.flags}`);
      for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(createProgram({ out: () => undefined, err: () => undefined, raw: () => undefined, isTty: false, canAsk: false, ask: async () => '' }), 'session-ledger');
    expect(missing).toEqual([]);
  });
});

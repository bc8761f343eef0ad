import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built CLI (npm test builds first). */
export const CLI = resolve(__dirname, '../../packages/cli/bin/session-ledger.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: () => any;
}

export const tempDir = (prefix = 'sl-'): string => mkdtempSync(join(tmpdir(), prefix));

/** Runs the CLI with a store of its own unless the env names one. */
export const runCli = (args: string[], options: { env?: Record<string, string>; input?: string } = {}): CliResult => {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: options.input,
    env: { ...process.env, SESSION_LEDGER_DEBUG: '', ...options.env },
    timeout: 60_000,
  });
  return {
    code: result.status ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    json: () => JSON.parse(result.stdout),
  };
};

/** Starts a long-running CLI command (serve, events all --follow) and collects its output. */
export const startCli = (args: string[], env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const waitFor = async (predicate: (out: string) => boolean, what: string, ms = 20_000) => {
    const start = Date.now();
    while (!predicate(stdout)) {
      if (child.exitCode !== null) throw new Error(`CLI exited (${child.exitCode}) before ${what}: ${stderr}`);
      if (Date.now() - start > ms) throw new Error(`Timed out waiting for ${what}; stdout: ${stdout}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    return new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  };
  return { child, waitFor, stop, stdout: () => stdout, stderr: () => stderr };
};

/**
 * The CLI, run without blocking this process: for tests whose peer lives in this process (the
 * EventStoreDB test double), which a synchronous run would starve.
 */
export const runCliAsync = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, SESSION_LEDGER_DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });

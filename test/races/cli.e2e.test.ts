import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';

const runAsync = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

/** CLI processes racing on one file, without ids or expected revisions: exit 0 means stored, once. */
describe('racing CLI processes on one SQLite file', () => {
  const temp = tempLedger('cli-races');
  const env = { SESSION_LEDGER_STORE: `sqlite:${temp.file}` };
  afterAll(() => temp.remove());

  it('6 processes x 4 appends at once: every exit 0 is stored, once', async () => {
    expect(runCli(['sessions', 'start', '--id', 'busy'], { env }).code).toBe(0);
    const runs = await Promise.all(
      Array.from({ length: 6 }, async (_, writer) => {
        const results = [];
        for (let index = 0; index < 4; index += 1) {
          results.push(await runAsync(['--json', 'messages', 'append', 'busy', '--role', 'user', '--content', `w${writer} #${index}`], env));
        }
        return results;
      }),
    );
    const all = runs.flat();
    expect(all.filter((run) => run.code !== 0).map((run) => run.stderr)).toEqual([]);
    const acked = all.map((run) => (JSON.parse(run.stdout) as { messageId: string }).messageId);
    const shown = runCli(['--json', 'sessions', 'show', 'busy'], { env }).json() as { messages: Array<{ id: string }> };
    expect(new Set(acked).size).toBe(24);
    expect(shown.messages.map((message) => message.id).sort()).toEqual([...acked].sort());
  });

  it('4 processes beginning a turn at once: exactly one exits 0, the others exit 1 session_active', async () => {
    expect(runCli(['sessions', 'start', '--id', 'turns'], { env }).code).toBe(0);
    const runs = await Promise.all(Array.from({ length: 4 }, (_, index) => runAsync(['--json', 'turns', 'begin', 'turns', '--owner', `h${index}`], env)));
    expect(runs.map((run) => run.code).sort()).toEqual([0, 1, 1, 1]);
    for (const run of runs.filter((candidate) => candidate.code === 1)) expect(run.stderr).toMatch(/held by live turn/);
  });
});

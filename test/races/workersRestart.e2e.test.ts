import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workerPids } from '@session-ledger/cli';
import { describe, expect, it } from 'vitest';
import { startServer } from '../support/http.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { alive, eventually, postFresh, serving } from './workerProcesses.js';

/**
 * The restart budget of `serve --workers 2` (restartBudget.ts), driven from outside: every worker
 * is killed with SIGKILL as soon as it appears in /proc, listening or not. Five deaths within
 * 60 s are replaced; the sixth stops the server. (That deaths older than 60 s are forgotten needs
 * more than 60 s of wall time here: restartBudget.unit.test.ts pins it.)
 */
describe('serve --workers 2: workers that keep dying', { timeout: 120_000 }, () => {
  it('5 deaths are replaced and the server serves; the 6th stops it: exit 4 (workers_failing), one line, no process left', async () => {
    const temp = tempLedger('workers-restart');
    const served = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2']);
    const primary = served.server.child.pid!;
    const killed: number[] = [];
    /** Kills each new worker at once until `count` are dead; returns the last one killed. */
    const killNew = async (count: number): Promise<number> => {
      while (killed.length < count) {
        if (served.server.child.exitCode !== null) throw new Error(`the server stopped after ${killed.length} deaths: ${served.server.stderr()}`);
        const fresh = workerPids(primary).find((pid) => !killed.includes(pid));
        if (fresh === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
        else {
          process.kill(fresh, 'SIGKILL');
          killed.push(fresh);
        }
      }
      return killed[killed.length - 1]!;
    };
    try {
      await killNew(5);
      // Five deaths within 60 s: each is replaced, and the server answers from two new workers.
      await eventually(() => served.server.stderr().split('\n').filter((line) => line.endsWith('; starting another')).length === 5, 'five reports');
      await eventually(() => workerPids(primary).filter((pid) => !killed.includes(pid)).length === 2, 'two new workers');
      await serving(served.url);
      expect((await postFresh(served.url, '/sessions', { id: 'after-five' })).status).toBe(201);
      expect(alive(primary)).toBe(true);
      // Each line reports one of the deaths caused here: no replacement failed on its own.
      expect(served.server.stderr().trimEnd().split('\n').map((line) => Number(/^session-ledger: worker process (\d+) /.exec(line)?.[1]))).toEqual(
        expect.arrayContaining(killed),
      );
      expect(served.server.stderr().trimEnd().split('\n')).toHaveLength(5);

      const last = await killNew(6);
      const survivors = workerPids(primary).filter((pid) => !killed.includes(pid));
      await eventually(() => served.server.child.exitCode !== null, 'the server to stop', 30_000);
      const code = served.server.child.exitCode;
      const lines = served.server.stderr().trimEnd().split('\n');
      expect({ code, last: lines[lines.length - 1] }).toEqual({
        code: 4,
        last: expect.stringMatching(
          new RegExp(`^session-ledger: worker processes keep dying \\(more than 5 in 60 s; the last, ${last}, was killed by SIGKILL( before it listened)?\\); stopping$`),
        ),
      });
      expect(lines).toHaveLength(6);
      await eventually(() => [...killed, ...survivors].every((pid) => !alive(pid)), 'every worker gone');
    } finally {
      await served.stop();
      temp.remove();
    }
  });

  it('every worker killed at once (--port 0): the replacements serve on the port announced', async () => {
    const temp = tempLedger('workers-all-dead');
    const served = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2']);
    try {
      const first = workerPids(served.server.child.pid!);
      for (const pid of first) process.kill(pid, 'SIGKILL');
      await eventually(() => served.server.stderr().split('\n').filter((line) => line.endsWith('; starting another')).length === 2, 'two reports');
      await serving(served.url);
      expect((await postFresh(served.url, '/sessions', { id: 'after-all-dead' })).status).toBe(201);
      expect(workerPids(served.server.child.pid!).filter((pid) => first.includes(pid))).toEqual([]);
    } finally {
      await served.stop();
      temp.remove();
    }
  });

  it('replacements that cannot open the store count as deaths, each reported with why; the 6th stops the server', async () => {
    const temp = tempLedger('workers-failing');
    const served = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2']);
    try {
      // The workers keep the file they opened; a new one finds something else at the path.
      renameSync(temp.file, join(temp.dir, 'moved.sqlite'));
      writeFileSync(temp.file, 'not a database\n'.repeat(100));
      const [victim] = workerPids(served.server.child.pid!);
      process.kill(victim!, 'SIGKILL');
      await eventually(() => served.server.child.exitCode !== null, 'the server to stop', 30_000);
      const lines = served.server.stderr().trimEnd().split('\n');
      const why = `failed before it listened (Cannot open ledger at ${temp.file}: file is not a database)`;
      expect({ code: served.server.child.exitCode, lines: lines.map((line) => line.replace(/(process|the last,) \d+/, '$1 PID')) }).toEqual({
        code: 4,
        lines: [
          'session-ledger: worker process PID was killed by SIGKILL; starting another',
          ...Array.from({ length: 4 }, () => `session-ledger: worker process PID ${why}; starting another`),
          `session-ledger: worker processes keep dying (more than 5 in 60 s; the last, PID, ${why}); stopping`,
        ],
      });
    } finally {
      await served.stop();
      temp.remove();
    }
  });
});

import { spawn } from 'node:child_process';
import { workerPids } from '@session-ledger/cli';
import { describe, expect, it } from 'vitest';

describe('workerPids: the processes a serve --workers primary started (Linux /proc)', () => {
  it('lists the children of a process and nothing else; none for a process without any', async () => {
    const children = [0, 1].map(() => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }));
    try {
      const pids = children.map((child) => child.pid!);
      expect(workerPids(process.pid).filter((pid) => pids.includes(pid)).sort()).toEqual([...pids].sort());
      expect(workerPids(process.pid).every((pid) => pid !== process.pid)).toBe(true);
      expect(workerPids(pids[0]!)).toEqual([]);
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
  });
});

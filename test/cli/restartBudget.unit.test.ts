import { describe, expect, it } from 'vitest';
import { restartBudget, workersFailing } from '../../packages/cli/src/commands/restartBudget.js';
import { exitCodeFor } from '../../packages/cli/src/output.js';

describe('serve --workers: how many dead workers are replaced', () => {
  it('replaces up to the budget within the window, then stops: a crash loop is not restarted for ever', () => {
    const died = restartBudget(3, 60_000);
    expect([0, 1_000, 2_000].map((at) => died(at))).toEqual(['restart', 'restart', 'restart']);
    expect(died(3_000)).toBe('stop');
  });

  it('forgets deaths older than the window: a worker lost now and then is always replaced', () => {
    const died = restartBudget(3, 60_000);
    const answers = Array.from({ length: 20 }, (_, n) => died(n * 30_000));
    expect(answers.every((answer) => answer === 'restart')).toBe(true);
  });

  it('a crash loop stops serve with the typed workers_failing, exit 4 and its one line, not an internal error (70)', () => {
    const err: string[] = [];
    const out: string[] = [];
    const io = { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) };
    const code = exitCodeFor(io as never, true, workersFailing('4242, was killed by SIGKILL'));
    expect({ code, err }).toEqual({ code: 4, err: ['session-ledger: worker processes keep dying (more than 5 in 60 s; the last, 4242, was killed by SIGKILL); stopping'] });
    expect(JSON.parse(out.join(''))).toEqual({
      error: { type: 'workers_failing', message: expect.any(String), details: { deaths: 6, windowSeconds: 60, last: '4242, was killed by SIGKILL' } },
    });
  });
});

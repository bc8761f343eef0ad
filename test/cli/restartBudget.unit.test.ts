import { describe, expect, it } from 'vitest';
import { restartBudget } from '../../packages/cli/src/commands/restartBudget.js';

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
});

import cliProgress from 'cli-progress';
import type { CommandContext } from './context.js';

export interface Progress {
  start(total: number): void;
  update(done: number): void;
  stop(): void;
}

const quiet: Progress = { start: () => undefined, update: () => undefined, stop: () => undefined };

/** A progress bar on a TTY (on stderr); silent in pipes and with --json. */
export const progressFor = (context: CommandContext, label: string, unit: string): Progress => {
  if (!context.io.isTty || context.json || process.env.CI) return quiet;
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} ${unit}`, stream: process.stderr, clearOnComplete: true, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    start: (total) => {
      bar.start(total, 0);
      started = true;
    },
    update: (done) => {
      if (!started) bar.start(Math.max(done, 1), 0), (started = true);
      if (done > bar.getTotal()) bar.setTotal(done);
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
      started = false;
    },
  };
};

import type { StreamMismatch } from './types.js';

/** The streams that failed, first reason kept; a failed stream is not written again in this run. */
export const mismatchLog = () => {
  const byStream = new Map<string, StreamMismatch>();
  return {
    report: (stream: string, reason: string, source: string, target: string) => {
      if (!byStream.has(stream)) byStream.set(stream, { stream, reason, source, target });
    },
    has: (stream: string) => byStream.has(stream),
    list: () => [...byStream.values()],
  };
};
export type MismatchLog = ReturnType<typeof mismatchLog>;

const MAX_MS = 8.64e15;

/** Hermes' epoch seconds (REAL) as an ISO time; the first usable of the given values, else the epoch. */
export const isoOf = (...seconds: Array<number | null | undefined>): string => {
  for (const value of seconds) {
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const ms = Math.round(value * 1000);
    if (Math.abs(ms) <= MAX_MS) return new Date(ms).toISOString();
  }
  return new Date(0).toISOString();
};

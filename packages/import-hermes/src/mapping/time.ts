/**
 * The times an ISO string of four-digit years can say (0000-01-01 to 9999-12-31, what the event
 * schemas accept): -1e12 seconds (year -29719) was a usable time here, then refused by the schema, so
 * its session was skipped, while 1e300 fell back to the epoch and was imported (outside test, session 23).
 */
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Hermes' epoch seconds (REAL) as an ISO time: the first usable of the given values, else the epoch
 * (the raw values stay in the session's `extra.hermes`).
 */
export const isoOf = (...seconds: Array<number | null | undefined>): string => {
  for (const value of seconds) {
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const ms = Math.round(value * 1000);
    if (ms >= MIN_MS && ms <= MAX_MS) return new Date(ms).toISOString();
  }
  return new Date(0).toISOString();
};

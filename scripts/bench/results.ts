import type { BenchRow } from './types.js';

/** A row as bench-results.json keeps it: with the area that measured it. */
export type StoredRow = BenchRow & { area?: string };

/**
 * What bench-results.json holds after a run of `ran`: each area run replaces every row it left
 * before, so a row whose name carries a parameter (a load, an event count) or that was renamed
 * never stays beside the fresh ones as if measured in the same run. Rows of the areas not run are
 * kept; a row written before rows carried their area is kept unless a fresh row has its name.
 */
export const mergeResults = (previous: readonly StoredRow[], ran: readonly string[], fresh: readonly StoredRow[]): StoredRow[] => [
  ...previous.filter((old) => (old.area === undefined ? !fresh.some((row) => row.name === old.name) : !ran.includes(old.area))),
  ...fresh,
];

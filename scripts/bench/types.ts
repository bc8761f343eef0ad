/** One line of bench-results.json: a figure, and the ceiling it is measured against. */
export interface BenchRow {
  name: string;
  unit: string;
  value: number;
  baseline: { name: string; value: number } | null;
  /** value / baseline.value; null without a baseline. */
  ratio: number | null;
}

/** A benchmark area: scripts/bench/<area>.ts, listed in scripts/bench/index.ts. */
export interface BenchArea {
  rows(): Promise<BenchRow[]>;
}

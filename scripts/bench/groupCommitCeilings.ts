import { layoutRows } from './groupLayout.js';
import { bareHttpRow } from './httpCeiling.js';
import { writePathRow } from './writePathCeiling.js';
import type { BenchRow } from './types.js';

/**
 * What the two throughput rows of issue 14 (groupCommit.ts) can reach on this machine, each beside
 * the same baseline as its row: `npm run bench -- --only group-commit,group-commit-ceilings`.
 */
export const rows = async (): Promise<BenchRow[]> => [await bareHttpRow(), ...(await layoutRows()), await writePathRow()];

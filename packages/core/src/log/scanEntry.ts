/**
 * The range scan alone (`@session-ledger/core/scan`), for verify's worker threads: each worker starts
 * per verify, and loading the whole package (its ledger, tracing and read-side modules) took about
 * 60 of a worker's 100 ms start-up; this entry loads only scanRange's own modules.
 */
export { scanRange } from './scanRange.js';
export type { RangeScan, ScanPage, ScanRow, ScanSource, StoredNodeTexts } from './scanRange.js';
export { nodeSpans } from './storedNodes.js';

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The built packages, as a verify worker loads them (Node's own resolution: tests alias the package to its sources). */
const storeDir = fileURLToPath(new URL('../../packages/store-sqlite/', import.meta.url));

const run = (script: string): string => execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: storeDir, encoding: 'utf8' }).trim();

describe('@session-ledger/core/scan: the range scan alone, for verify workers', () => {
  it('resolves to the very scanRange of the package index, and exports nothing else but the stored nodes\' spans', () => {
    expect(run(`const scan = await import('@session-ledger/core/scan'); const core = await import('@session-ledger/core'); console.log(scan.scanRange === core.scanRange && typeof scan.scanRange)`)).toBe('function');
    // The entry holds the scan only (its types aside), and which stored nodes a page completes: nothing of the ledger, tracing or stores.
    expect(run(`const scan = await import('@session-ledger/core/scan'); console.log(Object.keys(scan).sort().join(','))`)).toBe('nodeSpans,scanRange');
  });

  it('is what the built verify worker imports', () => {
    expect(run(`import { readFileSync } from 'node:fs'; console.log(/from '@session-ledger\\/core\\/scan'/.test(readFileSync('dist/log/verifyWorker.js', 'utf8')))`)).toBe('true');
  });
});

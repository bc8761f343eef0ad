import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary root per test run: TMPDIR points into it, so every scratch directory the tests make
 * (and the CLI processes they spawn, which inherit the environment) lands there, and the run removes
 * it at the end instead of leaving hundreds of ledgers behind in /tmp.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'session-ledger-tests-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}

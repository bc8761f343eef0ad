import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory for one test's ledger file; `remove` deletes it. */
export const tempLedger = (label = 'ledger') => {
  const dir = mkdtempSync(join(tmpdir(), `session-ledger-${label}-`));
  return { dir, file: join(dir, 'ledger.sqlite'), remove: () => rmSync(dir, { recursive: true, force: true }) };
};

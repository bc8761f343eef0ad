import type { z } from 'zod';
import { invalidInput, type LedgerError } from '@session-ledger/core';

/** One line naming the first problem of a failed parse, e.g. `data.role: Invalid option`. */
export const invalidEvent = (what: string, error: z.ZodError): LedgerError<'invalid_input'> => {
  const issue = error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '';
  const where = path ? `${path}: ` : '';
  return invalidInput(`Invalid ${what}: ${where}${issue?.message ?? 'does not match its schema'}`, path || undefined);
};

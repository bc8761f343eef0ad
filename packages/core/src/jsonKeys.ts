import type { JsonTextScan } from './jsonDepth.js';

/** The members of every object in a parsed JSON value. */
const membersOf = (value: unknown): number => {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + membersOf(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const key of Object.keys(value)) count += 1 + membersOf((value as Record<string, unknown>)[key]);
  return count;
};

/**
 * Whether JSON text repeated a key in an object: JSON.parse keeps the last, so a value the client
 * sent (`{"role":"system","role":"user"}`) would be acknowledged and never stored. `scan` is the
 * text's scanJsonText, `value` what JSON.parse made of it.
 */
export const repeatsKeys = (scan: JsonTextScan, value: unknown): boolean => scan.members > membersOf(value);

export const repeatedKeyMessage = (what: string): string => `${what} repeats a key in an object: JSON keeps only the last, so send each key once`;

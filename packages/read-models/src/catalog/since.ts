import { invalidInput } from '@session-ledger/core';
import { DURATION_PATTERN, parseDuration } from '@session-ledger/events';

/** `since`: an ISO time, or a duration back from `now` such as 7d (the duration parser the CLI and HTTP share). */
export const parseSince = (label: string, text: string, now: Date): Date => {
  if (new RegExp(DURATION_PATTERN).test(text.trim())) return new Date(now.getTime() - parseDuration(label, text.trim()));
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidInput(`${label} must be an ISO time such as 2026-01-31T00:00:00Z or a duration such as 7d: ${JSON.stringify(text)}`, label.replace(/^-+/, ''));
  return new Date(ms);
};

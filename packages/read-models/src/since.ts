import { invalidInput, isRealDay } from '@session-ledger/core';
import { DURATION_PATTERN, parseDuration } from '@session-ledger/events';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * `since` as a person types it on every face: an ISO time (or date), or a duration back from `now`
 * (7d, 12h: the one duration parser the CLI and HTTP share). The catalog and search both filter by it.
 */
export const parseSince = (label: string, text: string, now: Date): Date => {
  const trimmed = text.trim();
  if (new RegExp(DURATION_PATTERN).test(trimmed)) {
    const at = new Date(now.getTime() - parseDuration(label, trimmed));
    // A duration reaching past the earliest time a Date holds (about 270,000 years back) is no time at all.
    if (Number.isNaN(at.getTime())) throw invalidInput(`${label} reaches too far back: ${JSON.stringify(text)}`, label.replace(/^--/, ''));
    return at;
  }
  // A day the calendar does not have (2026-11-31) is refused, never rolled over to the next month.
  const at = ISO.test(trimmed) && isRealDay(Number(trimmed.slice(0, 4)), Number(trimmed.slice(5, 7)), Number(trimmed.slice(8, 10))) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(at)) throw invalidInput(`${label} must be an ISO time or a duration such as 7d or 12h: ${JSON.stringify(text)}`, label.replace(/^--/, ''));
  return new Date(at);
};

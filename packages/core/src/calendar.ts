/**
 * Whether year-month-day names a day of the calendar (Date.parse rolls 2026-11-31 over to
 * 2026-12-01, and takes 2026-02-30: every time a person types is checked with this first).
 */
export const isRealDay = (year: number, month: number, day: number): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();

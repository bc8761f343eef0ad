/** A JSON number literal as sign, significant digits and a power of ten (`-12e3` for -12000); null if it is none. */
const decimal = (literal: string): string | null => {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (match === null) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = (whole! + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  return `${sign}${significant}e${Number(exponent) - fraction.length + (digits.length - significant.length)}`;
};

/**
 * Whether a JSON number literal is a whole number that JSON.parse changes: its double reads back
 * with other digits (9007199254740993 as 9007199254740992). Integer literals, and since session 29
 * the same numbers written with a fraction or an exponent (`9007199254740993.0`, `9.007199254740993e15`,
 * as BigDecimal and other serialisers write them; outside test, session 29, F1), which were stored
 * changed. A fraction JSON rounds (0.1) is no whole number: a double, as JSON means it. A number past
 * a double (1e400) is refused elsewhere, naming where it stands (wellFormed.ts).
 * Digits are compared as a decimal value, never as text: `100000000000000000000000` is the number
 * `1e23` is, and its double writes back as 1e+23; the integer spelling alone was refused while
 * `1e23` and `100000000000000000000000.0` were taken (outside test, session 30).
 */
export const changesWholeNumber = (literal: string): boolean => {
  const value = Number(literal);
  if (String(value) === literal) return false;
  if (!Number.isFinite(value)) return false;
  const written = decimal(literal);
  if (written === null || written === '0' || Number(written.slice(written.indexOf('e') + 1)) < 0) return false;
  return written !== decimal(String(value));
};

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

/** The whole part of a `decimal` (`-12345e-2` → -123n), exactly. */
const wholePart = (written: string): bigint => {
  const mark = written.indexOf('e');
  const negative = written.startsWith('-');
  const digits = written.slice(negative ? 1 : 0, mark);
  const exponent = Number(written.slice(mark + 1));
  const kept = exponent >= 0 ? digits + '0'.repeat(exponent) : digits.slice(0, Math.max(0, digits.length + exponent));
  const whole = BigInt(kept === '' ? '0' : kept);
  return negative ? -whole : whole;
};

/**
 * Whether a JSON number literal is a number whose whole part JSON.parse changes: its double reads
 * back (as JSON writes it) with another whole part (9007199254740993 as 9007199254740992). Integer literals, and since
 * session 29 the same numbers written with a fraction or an exponent (`9007199254740993.0`,
 * `9.007199254740993e15`, as BigDecimal and other serialisers write them; outside test, session 29,
 * F1), which were stored changed. A fraction near 2^53 and past it changes the whole part too
 * (`1234567890123456789e-1`, that is 123456789012345678.9, read as 123456789012345680, while the
 * closer 123456789012345678 was refused; outside test, session 31, F1). A fraction JSON rounds in its
 * fraction digits only (0.1) is a double, as JSON means it. A number past a double (1e400) is refused
 * elsewhere, naming where it stands (wellFormed.ts). The whole parts are compared as decimal values,
 * never as text: `100000000000000000000000` is the number `1e23` is, and its double writes back as
 * 1e+23; the integer spelling alone was refused while `1e23` was taken (outside test, session 30).
 */
export const changesWholeNumber = (literal: string): boolean => {
  const value = Number(literal);
  if (String(value) === literal || !Number.isFinite(value)) return false;
  const written = decimal(literal);
  return written !== null && wholePart(written) !== wholePart(decimal(String(value))!);
};

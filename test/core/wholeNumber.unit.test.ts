import { describe, expect, it } from 'vitest';
import { inexactInteger } from '@session-ledger/core';

/**
 * A whole number JSON.parse would change is refused wherever JSON text enters, never stored changed.
 * Only its integer spelling was: the same number written with a fraction or an exponent, as
 * BigDecimal and other serialisers write it, was acknowledged and stored as another number
 * (outside test, session 29, F1).
 */
describe('inexactInteger', () => {
  it('finds a whole number past 2^53 in every spelling JSON allows', () => {
    for (const literal of [
      '9007199254740993',
      '9007199254740993.0',
      '-9007199254740993.00',
      '9007199254740993e0',
      '9.007199254740993e15',
      '900719925474099.3E1',
      '18446744073709551615.000',
      // Past 2^53 a fraction changes the whole part: stored as 123456789012345680 (outside test, session 31, F1).
      '1234567890123456789e-1',
      '123456789012345678.9',
      '12345678901234567.5',
      '-9007199254740993.5',
      '9007199254740991.5',
    ]) {
      expect({ literal, found: inexactInteger(`{"a":[1,${literal}]}`) }).toEqual({ literal, found: literal });
    }
  });

  it('leaves numbers JSON keeps: whole numbers a double holds exactly, fractions, and strings', () => {
    for (const literal of [
      '9007199254740992.0',
      '1e300',
      '1.5e20',
      '100000000000000000000',
      '1.0000000000000000000',
      '-0.0000000000000000000',
      '0.1000000000000000055511151231257827',
      '123456789012345678e-10',
      '4503599627370495.5',
      '4503599627370496.5',
      '9007199254740992.000000000000000000000001e0',
      // The integer spelling of a number whose double writes back the same value (1e+23): it was
      // refused while 1e23 and 100000000000000000000000.0 were taken (outside test, session 30).
      '100000000000000000000000',
      '-100000000000000000000000',
      '1000000000000000000000000000000',
      '1E23',
    ]) {
      expect({ literal, found: inexactInteger(`[${literal}]`) }).toEqual({ literal, found: undefined });
    }
    expect(inexactInteger('{"s":"9007199254740993.0"}')).toBeUndefined();
  });
});

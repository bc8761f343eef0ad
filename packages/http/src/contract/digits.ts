/**
 * A range of whole numbers as one pattern, so the published document states the bound the server
 * applies: `[0-9]{1,5}` beside a check of 1 to 10000 documented 0 and 99999, which were refused
 * (outside test, session 31, F6). Leading zeros are allowed up to the digits of `max`.
 */
export const digitsUpTo = (max: bigint): string => {
  const top = String(max);
  const alternatives = top.length > 1 ? [`[0-9]{1,${top.length - 1}}`, top] : [top];
  for (let i = 0; i < top.length; i++) {
    const digit = Number(top[i]);
    const rest = top.length - i - 1;
    if (digit > 0) alternatives.push(`${top.slice(0, i)}${digit === 1 ? '0' : `[0-${digit - 1}]`}${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  return `(?:${alternatives.join('|')})`;
};

/** The pattern of the whole numbers from `min` (0 or 1) to `max`, digits only. */
export const wholeFromTo = (min: 0 | 1, max: bigint): RegExp => new RegExp(`^${min === 1 ? '(?!0+$)' : ''}${digitsUpTo(max)}$`);

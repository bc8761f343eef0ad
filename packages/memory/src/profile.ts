import { invalidInput } from '@session-ledger/core';

export const DEFAULT_PROFILE = 'default';

/** The rule as the HTTP schemas publish and apply it. */
export const PROFILE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
const PROFILE = new RegExp(PROFILE_PATTERN);

/** A profile names a stream (`memory-<profile>`): letters, digits, `_ . -`, at most 64. */
export const checkProfile = (profile: string): string => {
  if (!PROFILE.test(profile)) throw invalidInput(`Invalid profile name: ${JSON.stringify(profile)}`, 'profile');
  return profile;
};

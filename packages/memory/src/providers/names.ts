import { invalidInput } from '@session-ledger/core';
import { PROVIDER_NAME } from './statusEvents.js';

/** Provider names key checkpoints and status: valid and unique. */
export const checkProviderNames = (names: readonly string[]): void => {
  const seen = new Set<string>();
  for (const name of names) {
    if (!PROVIDER_NAME.test(name)) throw invalidInput(`Invalid provider name: ${JSON.stringify(name)}`, 'name');
    if (seen.has(name)) throw invalidInput(`Two providers are named ${name}`, 'name');
    seen.add(name);
  }
};

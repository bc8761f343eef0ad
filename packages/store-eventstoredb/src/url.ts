import { invalidInput } from '@session-ledger/core';

/** The URL schemes this adapter opens; KurrentDB's names map onto the client's esdb schemes. */
const SCHEMES: Record<string, string> = {
  esdb: 'esdb',
  'esdb+discover': 'esdb+discover',
  kurrentdb: 'esdb',
  'kurrentdb+discover': 'esdb+discover',
};

export const EVENTSTOREDB_SCHEMES = Object.keys(SCHEMES);

/**
 * A store URL as the client's connection string: `kurrentdb://` becomes `esdb://`; credentials,
 * hosts and options (`tls`, `tlsCAFile`, `userCertFile`, `userKeyFile`, `defaultDeadline`, ...)
 * pass through unchanged, so TLS is configured exactly as the client documents it.
 */
export const toConnectionString = (url: string): string => {
  const match = /^([a-z+]+):\/\/(.*)$/i.exec(url.trim());
  const scheme = match ? SCHEMES[match[1]!.toLowerCase()] : undefined;
  if (!match || !scheme) {
    throw invalidInput(`Not an EventStoreDB URL: "${url}" (use esdb://host:2113?tls=false, esdb+discover:// or kurrentdb://)`, 'url');
  }
  if (match[2]!.length === 0) throw invalidInput(`The EventStoreDB URL "${url}" names no host`, 'url');
  return `${scheme}://${match[2]}`;
};

/** The URL with any password replaced, for store names and messages. */
export const redactUrl = (url: string): string => url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');

import { isIP } from 'node:net';

/** An address literal or `localhost`, with IPv6 brackets and a v4-mapped prefix stripped. */
const bare = (host: string): string => {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = unbracketed.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
};

/**
 * Loopback is decided from the parsed address, never from a name's prefix: `localhost`, any IPv4
 * address in 127.0.0.0/8, `::1` (and its v4-mapped forms). `127.evil.example` is a name, not loopback.
 */
export const isLoopback = (host: string): boolean => {
  const address = bare(host);
  if (address === 'localhost') return true;
  const family = isIP(address);
  if (family === 4) return address.split('.')[0] === '127';
  if (family === 6) return address === '::1' || address === '0:0:0:0:0:0:0:1';
  return false;
};

const bracketed = (address: string): string => (isIP(address) === 6 ? `[${address}]` : address);

/** The WHATWG URL spelling of a host (what a browser sends: `[::ffff:7f00:1]`, `[::1]`), or none for a name URL refuses. */
const urlSpelling = (host: string): string[] => {
  try {
    return [new URL(`http://${host}/`).hostname];
  } catch {
    return [];
  }
};

/**
 * Every Host name (without the port) that can reach an address: as given, as the server prints it
 * (`http://[::ffff:127.0.0.1]:P`), without a v4-mapped prefix, and as a browser normalizes it
 * (`[::ffff:7f00:1]`, `[0:0:0:0:0:0:0:1]` as `[::1]`); IPv6 in brackets, lower case.
 */
export const hostNames = (host: string): string[] => {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const given = bracketed(unbracketed.toLowerCase());
  return [...new Set([given, bracketed(bare(host)), ...urlSpelling(given)])];
};

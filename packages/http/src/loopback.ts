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

/** `host:port` as a Host header names it (IPv6 in brackets). */
export const authority = (host: string, port: number): string => {
  const address = bare(host);
  return `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
};

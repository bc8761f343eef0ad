import { invalidInput } from '@session-ledger/core';

/** What a bearer token may hold: visible ASCII (RFC 6750's b64token and more), what a header can carry and the check compares. */
const TOKEN = /^[\x21-\x7e]+$/;
/** A Host value to allow: a name or an IPv4 address, or a bracketed IPv6 one, with an optional port. */
const HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

const isOrigin = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
};

const quoted = (text: string): string => JSON.stringify(text).slice(0, 80);

/**
 * Settings no request could ever satisfy are refused when the service is made (the CLI's exit 2),
 * never served (outside test, session 23): a token of spaces or with a control character (a header
 * cannot carry it, or HTTP trims it: every request 401), an empty one (taken for none), a Host or an
 * origin that no request can send (`''`, a control character, an origin with a path).
 */
export const checkServiceOptions = (options: { token?: string; allowedHosts?: string[]; corsOrigins?: string[] }): void => {
  const { token } = options;
  if (token !== undefined && !TOKEN.test(token)) {
    throw invalidInput(token === '' ? 'The token is empty' : 'The token must be visible ASCII, without spaces or control characters (a header carries no other)', 'token');
  }
  for (const host of options.allowedHosts ?? []) {
    if (host !== '*' && !HOST.test(host)) throw invalidInput(`Not a host to allow: ${quoted(host)} (a name, an address or [IPv6], with an optional :port; or *)`, 'allowedHosts');
  }
  for (const origin of options.corsOrigins ?? []) {
    if (origin !== '*' && !isOrigin(origin)) throw invalidInput(`Not an origin: ${quoted(origin)} (scheme://host[:port], nothing after it, as a browser sends it; or *)`, 'corsOrigins');
  }
};

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createGuard } from '../../packages/http/src/guard.js';

/** A request as the guard reads it: the Host header, and the address and port it arrived on. */
const request = (host: string, localAddress: string, localPort = 4780) =>
  ({ method: 'GET', headers: { host }, socket: { localAddress, localPort } }) as unknown as IncomingMessage;

const allowed = (bound: string, localAddress: string, host: string): boolean => {
  try {
    createGuard({ host: bound }).check(request(host, localAddress));
    return true;
  } catch {
    return false;
  }
};

describe('the Host allow-list: the bound address in every spelling that reaches it', () => {
  it('allows the address as serve prints it, as given, without its v4-mapped prefix, and as a browser normalizes it; nothing else', () => {
    const cases: Array<[bound: string, localAddress: string, hosts: string[]]> = [
      ['::ffff:127.0.0.1', '::ffff:127.0.0.1', ['[::ffff:127.0.0.1]:4780', '[::FFFF:127.0.0.1]:4780', '[::ffff:7f00:1]:4780', '127.0.0.1:4780']],
      ['::FFFF:127.0.0.1', '::ffff:127.0.0.1', ['[::ffff:127.0.0.1]:4780', '[::ffff:7f00:1]:4780']],
      ['0:0:0:0:0:0:0:1', '::1', ['[0:0:0:0:0:0:0:1]:4780', '[::1]:4780']],
      ['127.0.0.2', '127.0.0.2', ['127.0.0.2:4780']],
      ['::ffff:10.0.0.5', '::ffff:10.0.0.5', ['[::ffff:10.0.0.5]:4780', '[::ffff:a00:5]:4780', '10.0.0.5:4780']],
    ];
    for (const [bound, localAddress, hosts] of cases) {
      for (const host of hosts) expect({ bound, host, allowed: allowed(bound, localAddress, host) }).toEqual({ bound, host, allowed: true });
    }
    // and nothing more: other addresses, other ports, no port.
    for (const host of ['[::ffff:127.0.0.1]:1', '[::ffff:127.0.0.2]:4780', '[::ffff:7f00:2]:4780', 'evil.example:4780', '[::ffff:127.0.0.1]']) {
      expect({ host, allowed: allowed('::ffff:127.0.0.1', '::ffff:127.0.0.1', host) }).toEqual({ host, allowed: false });
    }
  });
});

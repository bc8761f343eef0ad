import { describe, expect, it } from 'vitest';
import { isLoopback } from '@session-ledger/http';

describe('isLoopback: decided from the parsed address', () => {
  it('is true for localhost, 127.0.0.0/8 and ::1, in their usual spellings', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      expect({ host, loopback: isLoopback(host) }).toEqual({ host, loopback: true });
    }
  });

  it('is false for names that merely start like loopback, and for other addresses', () => {
    for (const host of ['127.evil.example', '127.0.0.1.evil.example', 'localhost.evil.example', '0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '', '127.0.0.256']) {
      expect({ host, loopback: isLoopback(host) }).toEqual({ host, loopback: false });
    }
  });
});

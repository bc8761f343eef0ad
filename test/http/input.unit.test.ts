import { describe, expect, it } from 'vitest';
import { parseDuration, parseOutcome, parseRole, parseRoles } from '@session-ledger/events';
import { sseField } from '@session-ledger/http';

describe('the one parser of durations, roles and outcomes (CLI and HTTP)', () => {
  it('reads every unit the CLI documents, days and weeks included', () => {
    expect(['250ms', '30s', '5m', '12h', '1d', '2w'].map((text) => parseDuration('ttl', text))).toEqual([250, 30_000, 300_000, 43_200_000, 86_400_000, 1_209_600_000]);
  });

  it.each([' 1s', '1s ', '\t1s', '\n1s\n', '\u00a01s', '\ufeff1s', '1s\u2028'])('takes exactly the published pattern: %j is refused', (text) => {
    expect(() => parseDuration('ttl', text)).toThrow(/^ttl must be a duration/);
  });

  it('names the field each face shows, never a flag it did not give', () => {
    expect(() => parseDuration('ttl', 'soon')).toThrow(/^ttl must be a duration/);
    expect(() => parseDuration('--ttl', 'soon')).toThrow(/^--ttl must be a duration/);
    expect(() => parseRole('role', 'wizard')).toThrow(/^role must be one of user, assistant, tool, system/);
    expect(() => parseOutcome('outcome', 'exploded')).toThrow(/^outcome must be one of completed, interrupted, failed/);
    expect(() => parseRoles('only', 'user,')).toThrow(/^only needs roles/);
    expect(parseRoles('only', 'user, assistant,user')).toEqual(['user', 'assistant']);
  });
});

describe('sseField: a value cannot leave its line', () => {
  it('escapes CR, LF and every other control character; leaves ordinary text alone', () => {
    const forged = sseField('event', 'tick\nid: 999999999\nevent: message.appended\r\ndata: {}');
    expect(forged).toBe('event: tick\\u000aid: 999999999\\u000aevent: message.appended\\u000d\\u000adata: {}\n');
    expect(forged.split(/\r\n|\r|\n/)).toHaveLength(2);
    expect(sseField('event', 'message.appended')).toBe('event: message.appended\n');
    expect(sseField('data', 'a\u0000b\u007f')).toBe('data: a\\u0000b\\u007f\n');
  });
});

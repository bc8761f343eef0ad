import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@session-ledger/core';
import { decodeSessionEvent, encodeSessionEvent, SCHEMA_VERSION_KEY } from '@session-ledger/events';

const stored = (type: string, data: unknown, metadata: Record<string, unknown> = {}): RecordedEvent =>
  ({ streamName: 'session-s', id: 'e', type, revision: 1n, position: 1n, data, metadata, created: '2026-01-01T00:00:00Z' }) as RecordedEvent;

const v1Message = { messageId: 'old', role: 'user', content: 'from v1', tokens: 12, timestamp: '2025-01-01T00:00:00.000Z' };

describe('session event schemas', () => {
  it('validation on write rejects a bad role, an unsafe id and a missing field with a one-line invalid_input', () => {
    const base = { messageId: 'm', role: 'user', content: 'x', timestamp: '2026-01-01T00:00:00Z' };

    expect(() => encodeSessionEvent({ type: 'message.appended', data: { ...base, role: 'robot' } as never })).toThrow(/role/);
    expect(() => encodeSessionEvent({ type: 'message.appended', data: { ...base, messageId: 'a b' } as never })).toThrow(/messageId/);
    expect(() => encodeSessionEvent({ type: 'turn.started', data: { turnId: 't', owner: 'o', startedAt: base.timestamp } as never })).toThrow(
      expect.objectContaining({ type: 'invalid_input' }),
    );
  });

  it('validation on read upcasts message.appended v1 (one token total) to the current shape', () => {
    const record = decodeSessionEvent(stored('message.appended', v1Message));

    expect(record).toMatchObject({ type: 'message.appended', storedVersion: 1, data: { messageId: 'old', tokenCounts: { total: 12 } } });
    expect(record.data).not.toHaveProperty('tokens');
  });

  it('an unknown newer version is unsupported_version, naming the type and both versions', () => {
    const event = stored('message.appended', { ...v1Message, future: true }, { [SCHEMA_VERSION_KEY]: 3 });

    expect(() => decodeSessionEvent(event)).toThrow(expect.objectContaining({ type: 'unsupported_version', details: { eventType: 'message.appended', version: 3, supported: 2 } }));
  });

  it('a stored value nested past what the schema can walk is invalid_input naming the event, never a stack overflow out of the reader', () => {
    let deep: unknown = [];
    for (let level = 0; level < 20_000; level += 1) deep = [deep];
    const event = stored('message.appended', { messageId: 'm', role: 'user', content: 'x', timestamp: '2026-01-01T00:00:00.000Z', extra: { x: deep } }, { [SCHEMA_VERSION_KEY]: 2 });

    expect(() => decodeSessionEvent(event)).toThrow(expect.objectContaining({ type: 'invalid_input', message: expect.stringContaining('message.appended event at session-s@1 (v2) holds a value nested too deep to check') }));
  });
});

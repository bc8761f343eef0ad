import { describe, expect, it } from 'vitest';
import { decideAppend, newId, validateEvents, type EventData, type StreamState } from '@session-ledger/core';

const live = (lastRevision: bigint): StreamState => ({ lastRevision, firstLive: 0n, tombstoned: false });
const none = () => undefined;

describe('validateEvents', () => {
  it('refuses an id that is not a UUID, naming it and the field', () => {
    expect(() => validateEvents([{ id: 'not-a-uuid', type: 't', data: {} }])).toThrow(
      expect.objectContaining({ type: 'invalid_input', message: 'Event id is not a UUID: not-a-uuid', details: { field: 'id' } }),
    );
  });

  it('refuses an empty type, naming the field', () => {
    expect(() => validateEvents([{ id: newId(), type: '', data: {} }])).toThrow(
      expect.objectContaining({ type: 'invalid_input', message: 'Event type is empty', details: { field: 'type' } }),
    );
  });

  it('refuses a type that is not a string (bad input from an untyped caller)', () => {
    // Deliberately bad input: a number where the type is a string.
    const bad = { id: newId(), type: 7, data: {} } as unknown as EventData;
    expect(() => validateEvents([bad])).toThrow(expect.objectContaining({ type: 'invalid_input', details: { field: 'type' } }));
  });
});

describe('decideAppend', () => {
  it('an empty batch at a stale exact revision is a conflict, not a retry', () => {
    expect(() => decideAppend('s', live(2n), [], 0n, none, none)).toThrow(
      expect.objectContaining({ type: 'wrong_expected_version', details: expect.objectContaining({ expected: '0', actual: '2' }) }),
    );
  });

  it('an empty batch at the current revision writes nothing new after it', () => {
    expect(decideAppend('s', live(2n), [], 2n, none, none)).toEqual({ kind: 'write', firstRevision: 3n });
  });
});

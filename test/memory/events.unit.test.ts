import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@session-ledger/core';
import { decodeMemoryEvent, decodeMemoryEvents, encodeMemoryEvent } from '@session-ledger/events';
import { emptyMemoryEntries, foldMemoryEntries, reduceMemoryEntries } from '@session-ledger/projections';

const recorded = (type: string, data: unknown, metadata: Record<string, unknown> = {}, revision = 0n): RecordedEvent =>
  ({ streamName: 'memory-work', id: `e-${revision}`, type, revision, position: revision + 10n, data, metadata, created: '2026-01-01T00:00:00.000Z' }) as RecordedEvent;

describe('memory events', () => {
  it('encode validates the data and writes the schema version and causation into the metadata', () => {
    const encoded = encodeMemoryEvent(
      { type: 'memory.entry_removed', data: { entryId: 'e1', target: 'user', previousContent: 'Name is Ada', selector: 'Ada' } },
      { sessionId: 's-1' },
    );
    expect(encoded.metadata).toEqual({ schemaVersion: 1, causation: { sessionId: 's-1' } });
    expect(() => encodeMemoryEvent({ type: 'memory.entry_added', data: { entryId: 'e1', target: 'notes' as 'user', content: 'x' } })).toThrow(
      /target/,
    );
    expect(() =>
      encodeMemoryEvent({ type: 'memory.entry_added', data: { entryId: 'e1', target: 'user', content: 'x', extra: 1 } as never }),
    ).toThrow(/Invalid memory.entry_added/);
  });

  it('decode gives the profile and causation, rejects newer versions and malformed data', () => {
    const record = decodeMemoryEvent(
      recorded('memory.entry_added', { entryId: 'e1', target: 'memory', content: 'x' }, { schemaVersion: 1, causation: { turnId: 't' } }),
    );
    expect(record).toMatchObject({ profile: 'work', type: 'memory.entry_added', causation: { turnId: 't' }, storedVersion: 1 });
    expect(() => decodeMemoryEvent(recorded('memory.entry_added', { entryId: 'e1', target: 'memory', content: 'x' }, { schemaVersion: 2 }))).toThrow(
      expect.objectContaining({ type: 'unsupported_version' }),
    );
    expect(() => decodeMemoryEvent(recorded('memory.entry_added', { entryId: 'e1', target: 'memory' }))).toThrow(
      expect.objectContaining({ type: 'invalid_input' }),
    );
    expect(decodeMemoryEvents([recorded('something.else', {})])).toEqual([]);
  });

  it('the entries view follows entry ids, keeps a replaced entry in place, and ignores unknown ids', () => {
    const view = foldMemoryEntries([
      { type: 'memory.entry_added', data: { entryId: 'a', target: 'memory', content: 'one' } },
      { type: 'memory.entry_added', data: { entryId: 'b', target: 'user', content: 'two' } },
      { type: 'memory.entry_replaced', data: { entryId: 'a', target: 'memory', previousContent: 'one', content: 'uno', selector: 'on' } },
      { type: 'memory.entry_removed', data: { entryId: 'zzz', target: 'memory' } },
    ]);
    expect(view.entries).toEqual([
      { id: 'a', target: 'memory', content: 'uno' },
      { id: 'b', target: 'user', content: 'two' },
    ]);
    const removed = reduceMemoryEntries(view, { type: 'memory.entry_removed', data: { entryId: 'a', target: 'memory' } });
    expect(removed.entries.map((entry) => entry.id)).toEqual(['b']);
    expect(view.entries).toHaveLength(2);
    expect(emptyMemoryEntries().entries).toEqual([]);
  });
});

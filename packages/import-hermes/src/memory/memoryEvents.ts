import { deterministicId, sha256Hex, type JsonObject } from '@session-ledger/core';
import { encodeMemoryEvent } from '@session-ledger/events';
import type { MemoryFileEntries } from './readMemoryDir.js';

export interface PlannedMemoryEvent {
  id: string;
  type: string;
  data: JsonObject;
  metadata: JsonObject;
}

/**
 * Each entry of MEMORY.md / USER.md as a legacy `memory.entry_added`: its id hashes profile, target
 * and content, so importing the same files again adds nothing, and an entry edited in Hermes arrives
 * as a new entry. Metadata marks it legacy (no previous content, no causation: never mirrored
 * destructively).
 */
export const memoryEvents = (profile: string, files: MemoryFileEntries[]): PlannedMemoryEvent[] =>
  files.flatMap((file) =>
    file.entries.map((content) => {
      const digest = sha256Hex(`${file.target}\u0000${content}`);
      const encoded = encodeMemoryEvent(
        { type: 'memory.entry_added', data: { entryId: `hermes-${file.target}-${digest.slice(0, 24)}`, target: file.target, content } },
        {},
        { importedFrom: 'hermes', legacy: true, hermes: { file: file.file.split(/[\\/]/).pop() ?? file.file, modified: file.modified } },
      );
      return {
        id: deterministicId('hermes-memory', profile, file.target, content),
        type: encoded.type,
        data: encoded.data as JsonObject,
        metadata: encoded.metadata,
      };
    }),
  );

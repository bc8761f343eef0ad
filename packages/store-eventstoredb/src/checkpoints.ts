import type { EventStoreDBClient } from '@eventstore/db-client';
import { invalidInput, isLedgerError, newId } from '@session-ledger/core';
import { checkpointStream } from './hidden.js';
import { mapped } from './errors.js';
import { readStream } from './readStream.js';

export const CHECKPOINT_EVENT = 'LedgerCheckpoint';
/** How many checkpoint events EventStoreDB keeps per name ($maxCount); older ones go at scavenge. */
export const CHECKPOINT_MAX_COUNT = 8;

/**
 * Named checkpoints kept in the store itself: one stream per name, the last event wins. The first
 * write of a name in a process sets the stream's $maxCount, so the stream stays short.
 */
export const checkpoints = (client: EventStoreDBClient) => {
  const limited = new Set<string>();
  return {
    async read(name: string): Promise<bigint | null> {
      try {
        const [last] = await readStream(client, checkpointStream(name), { direction: 'backwards', maxCount: 1 });
        const position = (last?.data as { position?: unknown } | undefined)?.position;
        return typeof position === 'string' && /^\d+$/.test(position) ? BigInt(position) : null;
      } catch (error) {
        if (isLedgerError(error, 'stream_not_found')) return null;
        throw error;
      }
    },
    async store(name: string, position: bigint): Promise<void> {
      if (typeof position !== 'bigint' || position < 0n) throw invalidInput(`A checkpoint is a position: ${String(position)}`);
      const stream = checkpointStream(name);
      const event = {
        id: newId(),
        type: CHECKPOINT_EVENT,
        contentType: 'application/json' as const,
        data: { position: position.toString() },
        metadata: undefined,
      };
      await mapped({ stream }, () => client.appendToStream(stream, event));
      if (!limited.has(name)) {
        await mapped({ stream }, () => client.setStreamMetadata(stream, { maxCount: CHECKPOINT_MAX_COUNT }));
        limited.add(name);
      }
    },
  };
};

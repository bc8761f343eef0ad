import { afterEach, beforeEach, describe } from 'vitest';
import type { EventStore } from '@session-ledger/core';
import type { ConformanceContext, StoreCapabilities } from './context.js';
import type { StoreSetup } from './helpers.js';
import { appendSection } from './sections/append.js';
import { concurrencySection } from './sections/concurrency.js';
import { deleteSection } from './sections/delete.js';
import { durableSection } from './sections/durable.js';
import { ledgerSection } from './sections/ledger.js';
import { propertySection } from './sections/properties.js';
import { readSection } from './sections/read.js';
import { subscriptionSection } from './sections/subscriptions.js';
import { wellFormedSection } from './sections/wellFormed.js';

export type { StoreSetup } from './helpers.js';
export type { StoreCapabilities } from './context.js';

/** SQLite and memory: a delete erases the events from `$all` at once. */
export const ERASED: StoreCapabilities = { deletedEventsInAll: 'erased', scavenge: false };

/**
 * The one suite every EventStore adapter must pass: EventStoreDB's semantics, each pinned by a
 * named test. `setup` gives a store for each test; the suite never assumes the store is empty
 * (every stream name carries a random suffix) nor that positions are contiguous. `capabilities`
 * states what the backend really keeps in `$all` after a delete; the delete sections assert that.
 */
export const describeEventStoreConformance = (name: string, setup: StoreSetup, capabilities: StoreCapabilities): void => {
  describe(`EventStore conformance: ${name}`, () => {
    let current: Awaited<ReturnType<StoreSetup>> | undefined;
    beforeEach(async () => {
      current = await setup();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });
    const context: ConformanceContext = {
      store: () => {
        if (!current) throw new Error('the conformance store is used outside a test');
        return current.store;
      },
      capabilities,
      scavenge: async () => {
        if (!current?.scavenge) throw new Error('this backend cannot scavenge in tests');
        await current.scavenge();
      },
    };
    appendSection(context);
    wellFormedSection(context);
    readSection(context);
    deleteSection(context);
    subscriptionSection(context);
    durableSection(context);
    concurrencySection(context);
    ledgerSection(context);
    propertySection(context);
  });
};

import { afterAll, describe, expect, it } from 'vitest';
import { newId, startDurableSubscriber, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { migrateStores, migrationNames } from '@session-ledger/migrate';
import { allEvents, populate, sqliteAt, tempDir } from './fixture.js';

const dir = tempDir();
afterAll(() => dir.remove());

const deliveredTo = async (store: EventStore, name: string): Promise<RecordedEvent[]> => {
  const seen: RecordedEvent[] = [];
  const subscriber = startDurableSubscriber(store, name, (event) => void seen.push(event), { onWarning: () => undefined });
  await subscriber.caughtUp;
  await subscriber.stop();
  return seen;
};

// Outside test, session 26: a generic subscriber's checkpoint was stored under its bare name, the name a migration
// keeps its resume position under (`migrate-<hash>`): a subscriber so named skipped every migrated event, and a
// migration into a store where it had run resumed past the whole source and copied nothing.
describe("a durable subscriber named like a migration's checkpoint", () => {
  it('gets every event of a migrated store, and leaves the migration its own position', async () => {
    const from = sqliteAt(dir.path(`${newId()}.sqlite`));
    const to = sqliteAt(dir.path(`${newId()}.sqlite`));
    try {
      await populate(from);
      expect((await migrateStores({ from, to })).mismatches).toEqual([]);
      const name = migrationNames(from.name).position;
      expect((await deliveredTo(to, name)).length).toBe((await allEvents(to)).length);
    } finally {
      await from.close();
      await to.close();
    }
  });

  it('having run on a target first, does not make a migration into it resume past the source', async () => {
    const from = sqliteAt(dir.path(`${newId()}.sqlite`));
    const to = sqliteAt(dir.path(`${newId()}.sqlite`));
    try {
      await populate(from);
      await to.appendToStream('before', Array.from({ length: 30 }, () => ({ id: newId(), type: 't', data: {}, metadata: {} })));
      await deliveredTo(to, migrationNames(from.name).position);
      const result = await migrateStores({ from, to });
      expect([result.resumedAfter, result.mismatches]).toEqual([null, []]);
    } finally {
      await from.close();
      await to.close();
    }
  });
});

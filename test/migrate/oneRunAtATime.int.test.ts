import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, isLedgerError, newId, readStreamIfAny, verifyLog, type EventStore } from '@session-ledger/core';
import { acquireLease, LEASE_STREAM, migrateStores, type MigrationSummary as Summary } from '@session-ledger/migrate';
import { openEsdbTestStore } from '../esdb-server/index.js';
import { allEvents, comparable, liveEvents, populate, sqliteAt, tempDir } from './fixture.js';

const dir = tempDir();
afterAll(() => dir.remove());

type Kind = 'sqlite' | 'memory' | 'esdb';
const openTarget = async (kind: Kind): Promise<EventStore> =>
  kind === 'sqlite' ? sqliteAt(dir.path(`${newId()}.sqlite`)) : kind === 'memory' ? createMemoryStore() : await openEsdbTestStore();

/** Every write a run makes through this view of the target, by method and stream. */
const recording = (to: EventStore) => {
  const writes: string[] = [];
  const store: EventStore = {
    ...to,
    appendToStream: (stream, events, options) => (writes.push(`append ${stream}`), to.appendToStream(stream, events, options)),
    deleteStream: (stream, options) => (writes.push(`delete ${stream}`), to.deleteStream(stream, options)),
    tombstoneStream: (stream, options) => (writes.push(`tombstone ${stream}`), to.tombstoneStream(stream, options)),
    storeCheckpoint: (name, position) => (writes.push(`checkpoint ${name}`), to.storeCheckpoint(name, position)),
  };
  return { store, writes };
};

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (isLedgerError(error, 'migration_running') ? error : Promise.reject(error)),
  );

/** The target matches its source and verifies, and the lease is released (no live lease event). */
const expectCopied = async (summary: Summary | undefined, from: EventStore, to: EventStore) => {
  expect(summary).toMatchObject({ ok: true, mismatches: [] });
  expect(comparable(await allEvents(to))).toEqual(comparable(await liveEvents(from)));
  expect((await createLedger(to).verify()).broken).toBeNull();
  expect(await readStreamIfAny(to, LEASE_STREAM)).toBeNull();
  if (to.log) expect((await verifyLog(to)).ok).toBe(true);
};

/** A target holding a live lease (a run killed with it) still verifies: lease events are hash-chained like the ledger's. */
const expectVerifies = async (to: EventStore) => {
  expect((await createLedger(to).verify()).broken).toBeNull();
  if (to.log) expect((await verifyLog(to)).ok).toBe(true);
};

describe.each(['sqlite', 'memory', 'esdb'] as const)('one migrate run into a target at a time (%s target)', (kind) => {
  let from: EventStore;
  let to: EventStore;
  let clock: number;
  const now = () => clock;
  beforeEach(async () => {
    from = sqliteAt(dir.path(`${newId()}.sqlite`));
    to = await openTarget(kind);
    await populate(from);
    clock = Date.parse('2026-01-01T00:00:00Z');
  });
  afterEach(async () => {
    await from.close();
    await to.close();
  });

  it('refuses a second run while the first copies (migration_running, nothing written); the first completes and verifies', async () => {
    // Run A stops after its first page is written (as a run does mid-copy); run B starts then.
    const paused = gate();
    const resume = gate();
    const a: EventStore = {
      ...to,
      storeCheckpoint: async (name, position) => {
        await to.storeCheckpoint(name, position);
        paused.open();
        await resume.opened;
      },
    };
    const first = migrateStores({ from, to: a, pageSize: 5, lease: { now } });
    await paused.opened;
    const before = comparable(await allEvents(to));
    const b = recording(to);
    const error = await refusal(migrateStores({ from, to: b.store, pageSize: 5, lease: { now } }));
    expect(error?.type).toBe('migration_running');
    expect(error?.details).toMatchObject({ lost: false, retryAfterMs: 20_000 });
    expect(error?.message).toMatch(/^Another migrate run into this target is under way \(run [0-9a-f-]+, pid \d+ on .+\); nothing was written/);
    expect(b.writes).toEqual([]);
    expect(comparable(await allEvents(to))).toEqual(before);
    resume.open();
    await expectCopied(await first, from, to);
  });

  it('after a run killed holding the lease: refuses before it expires (saying how long to wait), takes it over after and completes', async () => {
    // A kill -9 after the first page: the lease is never released (the release is what a killed process never does).
    const killed: EventStore = {
      ...to,
      deleteStream: async (stream, options) => (stream === LEASE_STREAM ? Promise.reject(new Error('killed')) : to.deleteStream(stream, options)),
    };
    const partial = await migrateStores({ from, to: killed, pageSize: 5, maxPages: 1, lease: { now, heartbeat: false } });
    expect(partial.complete).toBe(false);
    expect((await readStreamIfAny(to, LEASE_STREAM))?.length).toBe(1);
    await expectVerifies(to);

    clock += 12_000;
    const early = recording(to);
    const error = await refusal(migrateStores({ from, to: early.store, lease: { now } }));
    expect(error?.details).toMatchObject({ retryAfterMs: 8_000, lost: false });
    expect(error?.message).toContain('if it was killed, its lease expires in 8 s (at 2026-01-01T00:00:20.000Z)');
    expect(early.writes).toEqual([]);

    clock += 8_001;
    const summary = await migrateStores({ from, to, lease: { now } });
    expect(summary.resumedAfter).not.toBeNull();
    await expectCopied(summary, from, to);
  });

  it('two runs racing to take over an expired lease: exactly one wins, the other is refused (its one write, the takeover append, refused by the store)', async () => {
    const left = await acquireLease(to, 'sqlite:killed-run', { now, heartbeat: false });
    expect(left.runId).toBeTruthy();
    clock += 25_000;
    // Both read the expired lease before either appends its takeover.
    let reading = 0;
    const bothRead = gate();
    const racing = () => {
      const view = recording(to);
      const store: EventStore = {
        ...view.store,
        readStream: async (stream, options) => {
          const events = await to.readStream(stream, options);
          if (stream === LEASE_STREAM && ++reading === 2) bothRead.open();
          if (stream === LEASE_STREAM && reading <= 2) await bothRead.opened;
          return events;
        },
      };
      return { store, writes: view.writes };
    };
    const [one, two] = [racing(), racing()];
    const outcomes = await Promise.allSettled([migrateStores({ from, to: one.store, lease: { now } }), migrateStores({ from, to: two.store, lease: { now } })]);
    const won = outcomes.filter((each) => each.status === 'fulfilled');
    const lost = outcomes.filter((each): each is PromiseRejectedResult => each.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toMatchObject({ type: 'migration_running' });
    // The loser's one write is its takeover append, which the store refused.
    const loser = outcomes[0]!.status === 'rejected' ? one : two;
    expect(loser.writes).toEqual([`append ${LEASE_STREAM}`]);
    await expectCopied((won[0] as PromiseFulfilledResult<Summary>).value, from, to);
  });

  it('a run whose expired lease another run took over stops writing (migration_running, lost)', async () => {
    const first = await acquireLease(to, 'sqlite:a', { now, heartbeat: false });
    clock += 21_000;
    const second = await acquireLease(to, 'sqlite:b', { now, heartbeat: false });
    await expect(first.ensure()).rejects.toMatchObject({ type: 'migration_running', details: { lost: true, runId: second.runId } });
    await second.renew();
    await expectVerifies(to);
    await second.release();
    expect(await readStreamIfAny(to, LEASE_STREAM)).toBeNull();
    // Taken again after a release (the stream soft-deleted): the numbering continues, the chain holds.
    const third = await acquireLease(to, 'sqlite:c', { now, heartbeat: false });
    await expectVerifies(to);
    await third.release();
  });

  it('a run paused past its TTL and taken over stops at its next write, not at its next page (outside test, session 24)', async () => {
    // one page holds every stream; the other run takes the lease over while this one is between two of its appends
    let appends = 0;
    let second: Awaited<ReturnType<typeof acquireLease>> | undefined;
    const pausing: EventStore = {
      ...to,
      appendToStream: async (stream, events, options) => {
        if (stream !== LEASE_STREAM && ++appends === 3) {
          clock += 21_000;
          second = await acquireLease(to, 'sqlite:b', { now, heartbeat: false });
        }
        return to.appendToStream(stream, events, options);
      },
    };

    const error = await refusal(migrateStores({ from, to: pausing, pageSize: 10_000, lease: { now, heartbeat: false } }));

    expect(error).toMatchObject({ details: { lost: true, runId: second!.runId } });
    // the append under way when the lease was taken lands; none after it (before: the rest of the page)
    expect(appends).toBe(3);
    await second!.release();
  });

  it('never copies a lease stream the source holds (a former target), nor compares it', async () => {
    const left = await acquireLease(from, 'sqlite:elsewhere', { now, heartbeat: false });
    expect(left.runId).toBeTruthy();
    const summary = await migrateStores({ from, to, lease: { now } });
    expect(summary).toMatchObject({ ok: true, mismatches: [] });
    expect(comparable(await allEvents(to))).toEqual(comparable((await liveEvents(from)).filter((event) => event.streamName !== LEASE_STREAM)));
    expect(await readStreamIfAny(to, LEASE_STREAM)).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLedgerError, type EventData, type EventStore, type ExpectedRevision } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { makeEvents, readAllOf, readOrError, uniquePrefix, uniqueStream } from '../helpers.js';
import { emptyStream, modelAppend, modelRead, modelRemove, type ModelOutcome, type ModelStream } from '../model.js';

const STREAMS = 3;
/** Fixed, so every run checks the same sequences, and enough of them to reach the rare cases counted below. */
const SEED = 20_261_201;
const NUM_RUNS = 150;
/** The sequences must reach this many appends expecting the deleted last revision of a soft-deleted stream. */
const MIN_SOFT_DELETED_EXACT = 10;

/**
 * 'current': the revision a reader sees (no_stream once soft-deleted); 'last': the last revision ever
 * written, which differs from 'current' exactly on a soft-deleted stream (a writer holding a stale revision).
 */
type ExpectedSpec = 'any' | 'no_stream' | 'stream_exists' | 'current' | 'last' | { exact: number };
type Op =
  | { op: 'append'; stream: number; source: 'new' | 'retry' | 'overlap'; batch: number; size: number; expected: ExpectedSpec }
  | { op: 'delete' | 'tombstone'; stream: number; expected: ExpectedSpec }
  | { op: 'read'; stream: number };

const expectedSpec = fc.oneof(
  fc.constantFrom<ExpectedSpec>('any', 'no_stream', 'stream_exists', 'current', 'current', 'last', 'last'),
  fc.record({ exact: fc.integer({ min: 0, max: 6 }) }),
);
const streamIndex = fc.integer({ min: 0, max: STREAMS - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('append' as const), stream: streamIndex, source: fc.constantFrom('new', 'new', 'retry', 'overlap') as fc.Arbitrary<'new' | 'retry' | 'overlap'>, batch: fc.nat(), size: fc.integer({ min: 1, max: 3 }), expected: expectedSpec }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), stream: streamIndex, expected: expectedSpec }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('tombstone' as const), stream: streamIndex, expected: expectedSpec }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('read' as const), stream: streamIndex }) },
);

const resolve = (spec: ExpectedSpec, s: ModelStream): ExpectedRevision => {
  if (spec === 'current') return s.ids.length - 1 >= s.firstLive ? BigInt(s.ids.length - 1) : 'no_stream';
  if (spec === 'last') return s.ids.length > 0 ? BigInt(s.ids.length - 1) : 'no_stream';
  return typeof spec === 'string' ? spec : BigInt(spec.exact);
};

const outcomeOfCall = async (call: Promise<{ nextExpectedRevision?: bigint; written?: boolean }>) => {
  try {
    const result = await call;
    return { ok: true as const, next: result.nextExpectedRevision, written: result.written };
  } catch (error) {
    if (!isLedgerError(error)) throw error;
    return { ok: false as const, type: error.type, actual: (error.details as { actual?: string }).actual };
  }
};

const expectSame = (actual: Awaited<ReturnType<typeof outcomeOfCall>>, model: ModelOutcome | null, label: string) => {
  if (model === null) return expect(actual, label).toMatchObject({ ok: true });
  if (model.kind === 'error') {
    expect(actual, label).toMatchObject({ ok: false, type: model.type });
    if (model.actual !== undefined && !actual.ok) expect(actual.actual, label).toBe(model.actual);
    return;
  }
  expect(actual, label).toMatchObject({ ok: true, next: BigInt(model.next) });
  if (actual.ok && actual.written !== undefined) expect(actual.written, label).toBe(model.kind === 'written');
};

/** How often the sequences reached the cases a one-line break of the append rules would get wrong. */
interface Reached {
  /** An exact expected revision equal to the last revision of a soft-deleted (not tombstoned) stream. */
  softDeletedExact: number;
}

/** True when `expected` names the last, deleted revision of a soft-deleted stream (EventStoreDB: no current revision). */
const isSoftDeletedExact = (model: ModelStream, expected: ExpectedRevision): boolean =>
  typeof expected === 'bigint' && !model.tombstoned && model.ids.length > 0 && model.firstLive === model.ids.length && expected === BigInt(model.ids.length - 1);

/** Runs one random sequence against the store and the model, comparing every outcome and read. */
const runSequence = async (store: EventStore, ops: Op[], reached: Reached, context: Pick<ConformanceContext, 'capabilities' | 'scavenge'>) => {
  const prefix = uniquePrefix('prop');
  const names = Array.from({ length: STREAMS }, (_, index) => `${prefix}${index}`);
  const models = names.map(() => emptyStream());
  const batches: EventData[][] = [];
  const committed: Array<{ stream: number; revision: number; id: string }> = [];
  const start = (await store.appendToStream(uniqueStream('marker'), makeEvents(1, 'marker'))).position;
  for (const [step, op] of ops.entries()) {
    const label = `step ${step}: ${JSON.stringify(op)}`;
    const model = models[op.stream]!;
    const name = names[op.stream]!;
    if (op.op === 'append') {
      const earlier = batches.length > 0 ? batches[op.batch % batches.length]! : undefined;
      const fresh = makeEvents(op.size, `t${step}`);
      const events = op.source === 'retry' && earlier ? earlier : op.source === 'overlap' && earlier ? [earlier[0]!, ...fresh] : fresh;
      batches.push(events);
      const expected = resolve(op.expected, model);
      if (isSoftDeletedExact(model, expected)) reached.softDeletedExact += 1;
      const before = model.ids.length;
      const expectedOutcome = modelAppend(model, events.map((event) => event.id), expected);
      if (expectedOutcome.kind === 'written') {
        events.forEach((event, index) => committed.push({ stream: op.stream, revision: before + index, id: event.id }));
      }
      expectSame(await outcomeOfCall(store.appendToStream(name, events, { expectedRevision: expected })), expectedOutcome, label);
    } else if (op.op === 'read') {
      expect(await readOrError(store, name).then((r) => (typeof r === 'string' ? r : r.map((e) => e.id))), label).toEqual(modelRead(model));
    } else {
      const expected = resolve(op.expected, model);
      const expectedOutcome = modelRemove(model, expected, op.op === 'tombstone');
      const call = op.op === 'delete' ? store.deleteStream(name, { expectedRevision: expected }) : store.tombstoneStream(name, { expectedRevision: expected });
      expectSame(await outcomeOfCall(call.then(() => ({}))), expectedOutcome, label);
    }
  }
  for (const [index, name] of names.entries()) {
    const read = await readOrError(store, name);
    expect(typeof read === 'string' ? read : read.map((event) => event.id), `final read of ${name}`).toEqual(modelRead(models[index]!));
  }
  if (store.streamState) {
    for (const [index, name] of names.entries()) {
      const model = models[index]!;
      const state = await store.streamState(name);
      const expected = { lastRevision: BigInt(model.ids.length - 1), firstLive: BigInt(model.firstLive), tombstoned: model.tombstoned };
      if (state === null) expect(expected, `streamState of ${name}`).toEqual({ lastRevision: -1n, firstLive: 0n, tombstoned: false });
      else expect(state, `streamState of ${name}`).toEqual(expected);
    }
  }
  if (store.listStreams) {
    const listed = (await store.listStreams()).filter((info) => info.name.startsWith(prefix));
    const expected = names.flatMap((name, index) => {
      const model = models[index]!;
      const info = { name, lastRevision: BigInt(model.ids.length - 1), firstLive: BigInt(model.firstLive), tombstoned: model.tombstoned };
      return info.lastRevision >= 0n || info.tombstoned ? [info] : [];
    });
    expect(listed.sort((a, b) => a.name.localeCompare(b.name)), 'listStreams').toEqual(expected);
  }
  const live = committed.filter((entry) => models[entry.stream]!.ids[entry.revision] !== undefined);
  const inAll = async () => (await readAllOf(store, prefix, start)).map((event) => [event.streamName, event.revision, event.id]);
  const expected = (entries: typeof committed) => entries.map((entry) => [names[entry.stream], BigInt(entry.revision), entry.id]);
  // Until a scavenge, EventStoreDB's $all still holds every event ever committed, deleted or not.
  const keptUntilScavenge = context.capabilities.deletedEventsInAll === 'until-scavenge';
  expect(await inAll(), 'readAll').toEqual(expected(keptUntilScavenge ? committed : live));
  if (keptUntilScavenge && context.capabilities.scavenge) {
    await context.scavenge();
    expect(await inAll(), 'readAll after a scavenge').toEqual(expected(live));
  }
};

export const propertySection = ({ store, ...context }: ConformanceContext): void => {
  describe('property: random append/delete/tombstone/read sequences match the model', () => {
    it(`agrees with the model on ${NUM_RUNS} random sequences (seed ${SEED}), reaching an exact revision on a soft-deleted stream`, async () => {
      const reached: Reached = { softDeletedExact: 0 };
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25, size: 'medium' }), (ops) => runSequence(store(), ops, reached, context)),
        { numRuns: NUM_RUNS, seed: SEED },
      );
      expect(reached.softDeletedExact).toBeGreaterThanOrEqual(MIN_SOFT_DELETED_EXACT);
    }, 120_000);
  });
};

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLedger, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { subscribedReadModels, type ReadModels } from '@session-ledger/read-models';
import {
  appendMessage,
  beginTurn,
  compressSession,
  endSession,
  endTurn,
  listConversations,
  renewLease,
  startSession,
} from '@session-ledger/sessions';
import { allRows, catalogStore, dump } from './support.js';

type Op =
  | { kind: 'start'; source: number; model: number; title: number }
  | { kind: 'child'; of: number; link: 'delegation' | 'branch' }
  | { kind: 'append'; to: number }
  | { kind: 'compress'; of: number }
  | { kind: 'begin'; on: number; ttl: number }
  | { kind: 'renew'; on: number; ttl: number }
  | { kind: 'endTurn'; on: number }
  | { kind: 'end'; of: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'tombstone'; of: number };

const pick = fc.nat(12);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('start' as const), source: fc.nat(2), model: fc.nat(2), title: fc.nat(3) }), weight: 3 },
  fc.record({ kind: fc.constant('child' as const), of: pick, link: fc.constantFrom('delegation' as const, 'branch' as const) }),
  { arbitrary: fc.record({ kind: fc.constant('append' as const), to: pick }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('compress' as const), of: pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('begin' as const), on: pick, ttl: fc.integer({ min: 1, max: 120 }) }), weight: 2 },
  fc.record({ kind: fc.constant('renew' as const), on: pick, ttl: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant('endTurn' as const), on: pick }),
  fc.record({ kind: fc.constant('end' as const), of: pick }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 90_000 }) }),
  { arbitrary: fc.record({ kind: fc.constant('tombstone' as const), of: pick }), weight: 2 },
);

const SOURCES = ['cli', 'hermes', undefined];
const MODELS = ['m1', 'm2', undefined];
const TITLES = ['plan', 'Plan', 'plan', undefined];

/** Runs a history through the writer API; refusals (sealed, ended, another live turn, deleted) are part of it. */
const run = async (ops: Op[], check: (store: EventStore, readModels: ReadModels, now: Date) => Promise<void>) => {
  const { store, readModels } = catalogStore();
  let now = new Date('2026-03-01T10:00:00.000Z');
  const context = { ledger: createLedger(store), now: () => now };
  const segments: string[] = [];
  const turns = new Map<string, string>();
  const at = (index: number) => segments[index % Math.max(segments.length, 1)];
  for (const [index, step] of ops.entries()) {
    try {
      switch (step.kind) {
        case 'start':
          segments.push((await startSession(context, { id: `s${index}`, source: SOURCES[step.source], model: MODELS[step.model], title: TITLES[step.title] })).sessionId);
          break;
        case 'child':
          if (at(step.of)) segments.push((await startSession(context, { id: `c${index}`, parentId: at(step.of)!, link: step.link })).sessionId);
          break;
        case 'append':
          if (at(step.to)) await appendMessage(context, at(step.to)!, { role: 'user', content: `m${index}` });
          break;
        case 'compress':
          if (at(step.of)) segments.push((await compressSession(context, at(step.of)!, { summary: 'S', childId: `z${index}` })).sessionId);
          break;
        case 'begin':
          if (at(step.on)) turns.set(at(step.on)!, (await beginTurn(context, at(step.on)!, { owner: 'o', ttlMs: step.ttl * 1000 })).turnId);
          break;
        case 'renew':
          if (at(step.on) && turns.has(at(step.on)!)) await renewLease(context, at(step.on)!, turns.get(at(step.on)!)!, { ttlMs: step.ttl * 1000 });
          break;
        case 'endTurn':
          if (at(step.on) && turns.has(at(step.on)!)) await endTurn(context, at(step.on)!, turns.get(at(step.on)!)!);
          break;
        case 'end':
          if (at(step.of)) await endSession(context, at(step.of)!);
          break;
        case 'advance':
          now = new Date(now.getTime() + step.ms);
          break;
        case 'tombstone':
          if (at(step.of)) await store.tombstoneStream(sessionStream(at(step.of)!));
          break;
      }
    } catch (error) {
      if (!(error instanceof Error) || !('type' in error)) throw error;
    }
    await check(store, readModels, now);
  }
  return { store, readModels, now };
};

const asListRow = ({ source: _s, model: _m, firstActivity: _f, ...row }: ReturnType<typeof allRows>[number]) => row;

describe('the catalog read model', () => {
  it('kept inline (after every write), rebuilt from $all, and fed by a subscription: the same rows as the session list folds from $all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 50 }), async (ops) => {
        const sameAsList = async (store: EventStore, readModels: ReadModels, now: Date) => {
          expect(allRows(await readModels.ready('catalog'), now).map(asListRow)).toEqual(await listConversations(store, { now }));
        };
        const { store, readModels, now } = await run(ops, sameAsList);
        const db = await readModels.ready('catalog');
        const incremental = dump(db);
        const rows = allRows(db, now);

        await readModels.rebuild('catalog');
        expect(dump(db)).toEqual(incremental);

        const subscribed = subscribedReadModels(store, ':memory:', readModels.models);
        expect(allRows(await subscribed.ready('catalog'), now)).toEqual(rows);
        subscribed.close();
      }),
      { numRuns: 60, seed: 15 },
    );
  });
});

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, type EventStore } from '@session-ledger/core';
import { memoryStream } from '@session-ledger/events';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import {
  createMemoryLedger,
  providerCheckpoint,
  readProviderStatus,
  readProviderStatuses,
  resumeProviders,
  startMemoryFanOut,
  type FanOutWarning,
  type MemoryFanOut,
} from '@session-ledger/memory';
import { recordingProvider, tempDirs, until } from './helpers.js';

const temp = tempDirs();
const running: MemoryFanOut[] = [];
const stores: EventStore[] = [];
afterEach(async () => {
  for (const fanOut of running.splice(0)) await fanOut.stop();
  for (const store of stores.splice(0)) await store.close();
  temp.cleanup();
});
const start = (...args: Parameters<typeof startMemoryFanOut>) => {
  const fanOut = startMemoryFanOut(...args);
  running.push(fanOut);
  return fanOut;
};
const sqlite = (file: string) => {
  const store = openSqliteStore(file);
  stores.push(store);
  return store;
};
const quiet = { onWarning: () => undefined };

describe('memory fan-out to providers', () => {
  it('delivers committed mutations in order with identity, nothing before commit and nothing for a failed batch', async () => {
    const base = createMemoryStore();
    const { provider, seen } = recordingProvider('recorder');
    const deliveredAtAppend: number[] = [];
    const watched: EventStore = {
      ...base,
      async appendToStream(stream, events, options) {
        if (stream.startsWith('memory-')) deliveredAtAppend.push(seen.length);
        return base.appendToStream(stream, events, options);
      },
    };
    const fanOut = start(base, [provider], quiet);
    await fanOut.caughtUp;
    const memory = createMemoryLedger(watched);
    const batch = await memory.apply(
      [
        { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
        { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
        { op: 'remove', target: 'memory', old: 'green notebook' },
      ],
      { causation: { sessionId: 's-7', turnId: 't-2' } },
    );
    await until(() => seen.length === 3, 'three deliveries');
    expect(deliveredAtAppend).toEqual([0]);
    expect(seen.map((m) => [m.op, m.entryId, m.previousContent, m.content, m.selector])).toEqual(
      batch.receipts.map((r) => [r.op, r.entryId, r.previousContent, r.content, r.selector]),
    );
    expect(seen.map((m) => m.revision)).toEqual([0n, 1n, 2n]);
    expect(seen[1]!.causation).toEqual({ sessionId: 's-7', turnId: 't-2' });

    await memory.add('memory', 'Prefers tea');
    await memory.add('memory', 'Prefers tea with milk');
    await expect(memory.apply([{ op: 'add', target: 'memory', content: 'x' }, { op: 'remove', target: 'memory', old: 'tea' }])).rejects.toMatchObject({ type: 'ambiguous' });
    await expect(memory.add('memory', 'y'.repeat(3000))).rejects.toMatchObject({ type: 'over_budget' });
    await memory.add('memory', 'Last one');
    await until(() => seen.length === 6, 'six deliveries');
    expect(seen.slice(3).map((m) => m.content)).toEqual(['Prefers tea', 'Prefers tea with milk', 'Last one']);
  });

  it('hands a batch to applyBatch at once, in order, also after a crash that checkpointed its first event; a forged batch is delivered alone', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'Uses the blue notebook');
    const batch = await memory.apply([
      { op: 'add', target: 'memory', content: 'Prefers tea' },
      { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
      { op: 'remove', target: 'memory', old: 'tea' },
    ]);
    const [first] = await store.readStream(memoryStream('default'), { fromRevision: 1n, maxCount: 1 });
    // A crash after the batch's first event was checkpointed: the fan-out resumes at its second.
    await store.storeCheckpoint(providerCheckpoint('batches'), first!.position);
    const calls: string[][] = [];
    const provider = {
      name: 'batches',
      apply: (mutation: { content: string | null }) => void calls.push([`apply ${mutation.content}`]),
      applyBatch: (mutations: readonly { op: string; entryId: string }[]) => void calls.push(mutations.map((m) => `${m.op} ${m.entryId}`)),
    };
    await start(store, [provider], quiet).caughtUp;
    expect(calls).toEqual([batch.receipts.map((r) => `${r.op} ${r.entryId}`)]);

    // An event whose batch metadata names siblings its stream does not hold (written behind the decider's back) is not held back.
    const forged = { ...first!, id: newId(), metadata: { ...first!.metadata, batch: { id: 'forged', index: 0, size: 3 } } };
    await store.appendToStream(memoryStream('other'), [{ id: forged.id, type: forged.type, data: forged.data, metadata: forged.metadata }], { expectedRevision: 'no_stream' });
    await until(() => calls.length === 2, 'the forged event delivered');
    expect(calls[1]).toEqual([`add ${(first!.data as { entryId: string }).entryId}`]);
  });

  it('after a crash mid-fan-out, a restarted provider gets the rest with none lost', async () => {
    const file = join(temp.make(), 'ledger.db');
    const first = sqlite(file);
    const memory = createMemoryLedger(first);
    const contents = ['one', 'two', 'three', 'four', 'five'];
    for (const content of contents) await memory.add('memory', content);

    let release!: () => void;
    const hang = new Promise<void>((resolve) => (release = resolve));
    let reached = false;
    const crashed = recordingProvider('mirror', async (mutation) => {
      if (mutation.content === 'three') {
        reached = true; // the mutation is being applied when the process dies, before its checkpoint
        await hang;
      }
    });
    const before = startMemoryFanOut(first, [crashed.provider], quiet);
    await until(() => reached, 'the third mutation');
    // Crash: the connection goes away with the handler in flight, so its checkpoint is never stored.
    await first.close();
    const stopped = before.stop();
    release();
    await stopped;
    expect(crashed.seen.map((m) => m.content)).toEqual(['one', 'two', 'three']);

    const second = sqlite(file);
    expect(await second.readCheckpoint(providerCheckpoint('mirror'))).toBe(crashed.seen[1]!.position);
    const restarted = recordingProvider('mirror');
    await start(second, [restarted.provider], quiet).caughtUp;
    expect(restarted.seen.map((m) => m.content)).toEqual(['three', 'four', 'five']);
    await createMemoryLedger(second).add('memory', 'six');
    await until(() => restarted.seen.length === 4, 'live delivery after restart');
  });

  it('parks a failing provider without blocking writers or other providers, and resumes it from another connection', async () => {
    const file = join(temp.make(), 'ledger.db');
    const server = sqlite(file);
    const cli = sqlite(file);
    let broken = true;
    const healthy = recordingProvider('healthy');
    const flaky = recordingProvider('flaky', () => {
      if (broken) throw new Error('remote unavailable');
    });
    const warnings: FanOutWarning[] = [];
    const fanOut = start(server, [healthy.provider, flaky.provider], {
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      onWarning: (warning) => warnings.push(warning),
    });
    const memory = createMemoryLedger(cli);
    await memory.add('user', 'Name is Ada');
    await memory.add('user', 'Lives in London');
    await until(async () => (await readProviderStatuses(cli)).some((s) => s.name === 'flaky' && s.state === 'parked'), 'flaky parked');
    await fanOut.caughtUp;
    const parked = await readProviderStatus(cli, 'flaky');
    expect(parked).toMatchObject({ state: 'parked', reason: 'remote unavailable', failed: { revision: 0, attempts: 3 }, checkpoint: null });
    expect(warnings.some((w) => w.provider === 'flaky' && /parked after 3 attempts/.test(w.message))).toBe(true);

    await memory.replace('user', 'London', 'Lives in Paris');
    await until(() => healthy.seen.length === 3, 'healthy provider keeps going');
    expect(flaky.seen).toEqual([]);

    broken = false;
    expect(await resumeProviders(cli, 'flaky')).toEqual(['flaky']);
    await until(() => flaky.seen.length === 3, 'resumed provider catches up');
    expect(flaky.seen.map((m) => m.content)).toEqual(['Name is Ada', 'Lives in London', 'Lives in Paris']);
    expect(flaky.seen[2]!.previousContent).toBe('Lives in London');
    const resumed = await readProviderStatus(cli, 'flaky');
    expect(resumed.state).toBe('active');
    expect(resumed.reason).toBeUndefined();
    // The checkpoint covers the last delivered mutation (and may scan past non-memory events).
    await until(async () => ((await readProviderStatus(cli, 'flaky')).checkpoint ?? -1n) >= flaky.seen[2]!.position, 'checkpoint');
    await expect(resumeProviders(cli, 'nope')).rejects.toMatchObject({ type: 'not_found' });
  });

  it('skips a destructive event without previous content, with a warning and a visible count', async () => {
    const store = createMemoryStore();
    const { provider, seen } = recordingProvider('strict');
    const warnings: FanOutWarning[] = [];
    start(store, [provider], { onWarning: (warning) => warnings.push(warning) });
    const memory = createMemoryLedger(store);
    const added = await memory.add('memory', 'Imported note');
    // Imported legacy data: a replace that never recorded which entry it replaced.
    await createLedger(store).append(memoryStream('default'), [
      { id: newId(), type: 'memory.entry_replaced', data: { entryId: added.receipts[0]!.entryId, target: 'memory', content: 'Edited' } },
    ]);
    await memory.add('memory', 'After legacy');
    await until(() => seen.length === 2, 'deliveries around the legacy event');
    expect(seen.map((m) => m.content)).toEqual(['Imported note', 'After legacy']);
    expect(warnings).toEqual([expect.objectContaining({ provider: 'strict', message: expect.stringMatching(/without previousContent/) })]);
    const status = await readProviderStatus(store, 'strict');
    expect(status).toMatchObject({ state: 'active', skipped: 1, lastSkipped: { revision: 1 } });
  });

  it('rejects invalid or duplicate provider names', () => {
    const store = createMemoryStore();
    expect(() => startMemoryFanOut(store, [recordingProvider('a b').provider])).toThrow(/Invalid provider name/);
    expect(() => startMemoryFanOut(store, [recordingProvider('x').provider, recordingProvider('x').provider])).toThrow(/Two providers/);
  });
});

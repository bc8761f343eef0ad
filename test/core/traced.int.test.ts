import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId, startDurableSubscriber, traced } from '@session-ledger/core';
import { deleteSession, exportSession, importJsonl } from '@session-ledger/retention';
import { appendMessage, startSession } from '@session-ledger/sessions';

// What a host application does to see session-ledger's spans: register an SDK (here with the
// in-memory exporter) and open its stores through traced(). Nothing else changes.
const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
});
beforeEach(() => exporter.reset());

const spans = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry spans', () => {
  it('traced(store): append and read with stream, revision and count; a refusal is an error span with its type', async () => {
    const store = traced(createMemoryStore());
    await store.appendToStream('orders-1', [1, 2].map((n) => ({ id: newId(), type: 'placed', data: { n } })));
    await store.readStream('orders-1');
    await expect(store.appendToStream('orders-1', [{ id: newId(), type: 'placed', data: {} }], { expectedRevision: 0n })).rejects.toThrow();
    const [append, refused] = spans('session-ledger.append');
    expect(append!.attributes).toMatchObject({ 'session_ledger.stream': 'orders-1', 'session_ledger.count': 2, 'session_ledger.revision': 1 });
    expect(spans('session-ledger.read')[0]!.attributes).toMatchObject({ 'session_ledger.stream': 'orders-1', 'session_ledger.count': 2, 'session_ledger.revision': 1 });
    expect(refused!.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(refused!.attributes).toMatchObject({ 'session_ledger.error_type': 'wrong_expected_version', 'session_ledger.expected_revision': '0' });
    await store.close();
  });

  it('traced(store) keeps everything else of the store: its name, optional methods and an adapter\'s own extras', async () => {
    const base = Object.assign(createMemoryStore(), { vacuum: () => 'vacuumed' });
    const store = traced(base);
    expect(store.name).toBe(base.name);
    expect(store.vacuum()).toBe('vacuumed');
    expect(typeof store.streamState).toBe(typeof base.streamState);
    await store.storeCheckpoint('c', 7n);
    expect(await base.readCheckpoint('c')).toBe(7n);
    expect(spans('session-ledger.append')).toEqual([]);
  });

  it('one deliver span per event a durable subscriber handles, covering its handler', async () => {
    const store = traced(createMemoryStore());
    await store.appendToStream('orders-1', [1, 2, 3].map((n) => ({ id: newId(), type: 'placed', data: { n } })));
    const handled: string[] = [];
    const subscriber = startDurableSubscriber(
      store,
      'billing',
      (event) => void handled.push(event.id),
      { filter: { streamNamePrefixes: ['orders-'] } },
    );
    await subscriber.caughtUp;
    await subscriber.stop();
    expect(handled).toHaveLength(3);
    const delivered = spans('session-ledger.deliver').filter((span) => span.attributes['session_ledger.stream'] === 'orders-1');
    expect(delivered.map((span) => span.attributes['session_ledger.revision'])).toEqual([0, 1, 2]);
    expect(delivered.every((span) => span.attributes['session_ledger.count'] === 1)).toBe(true);
  });

  it('export, delete and import are spans whose store calls are their children', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'traced-'));
    try {
      const store = traced(createMemoryStore());
      const ledger = createLedger(store);
      const writer = { ledger, now: () => new Date('2026-01-01T00:00:00Z') };
      await startSession(writer, { id: 's-1' });
      await appendMessage(writer, 's-1', { role: 'user', content: 'hello' });
      await appendMessage(writer, 's-1', { role: 'assistant', content: 'hi' });

      const file = join(dir, 's-1.jsonl');
      await exportSession(store, 's-1', { format: 'jsonl', out: file });
      const [exported] = spans('session-ledger.export');
      expect(exported!.attributes).toMatchObject({ 'session_ledger.session': 's-1', 'session_ledger.stream': 'session-s-1', 'session_ledger.revision': 2, 'session_ledger.count': 2 });
      const reads = spans('session-ledger.read').filter((span) => parentOf(span) === exported!.spanContext().spanId);
      expect(reads.length).toBeGreaterThan(0);

      await deleteSession(ledger, 's-1');
      const [deleted] = spans('session-ledger.delete_session');
      expect(deleted!.attributes).toMatchObject({ 'session_ledger.session': 's-1', 'session_ledger.stream': 'session-s-1', 'session_ledger.count': 1 });
      const [tombstone] = spans('session-ledger.tombstone');
      expect(parentOf(tombstone!)).toBe(deleted!.spanContext().spanId);
      expect(tombstone!.attributes).toMatchObject({ 'session_ledger.stream': 'session-s-1', 'session_ledger.expected_revision': '2' });

      const target = traced(createMemoryStore());
      await importJsonl(createLedger(target), file);
      const [imported] = spans('session-ledger.import');
      expect(imported!.attributes).toMatchObject({ 'session_ledger.stream': 'session-s-1', 'session_ledger.revision': 2, 'session_ledger.count': 3 });
      const appends = spans('session-ledger.append').filter((span) => parentOf(span) === imported!.spanContext().spanId);
      expect(appends.map((span) => span.attributes['session_ledger.stream'])).toContain('session-s-1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

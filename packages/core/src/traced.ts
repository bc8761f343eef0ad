import { trace, type Span } from '@opentelemetry/api';
import type { RecordedEvent } from './envelope.js';
import { formatExpected } from './envelope.js';
import type { EventStore } from './port.js';
import type { Subscription, SubscriptionItem } from './subscription.js';
import { ATTR, attrNumber, recordFailure, TRACER_NAME, withSpan } from './tracing.js';

const eventAttributes = (event: RecordedEvent) => ({
  [ATTR.stream]: event.streamName,
  [ATTR.revision]: attrNumber(event.revision),
  [ATTR.position]: attrNumber(event.position),
});

/**
 * One `session-ledger.deliver` span per event a subscription yields: it starts when the event is
 * handed over and ends when the consumer asks for the next item (or closes), so it covers the
 * consumer's handling of that event.
 */
const tracer = trace.getTracer(TRACER_NAME);

const tracedSubscription = (inner: Subscription, name: string, attributes: Record<string, string>): Subscription => {
  let open: Span | undefined;
  const finish = () => {
    open?.end();
    open = undefined;
  };
  const iterator = inner[Symbol.asyncIterator]();
  const traced: AsyncIterator<SubscriptionItem> = {
    next: async () => {
      finish();
      const step = await iterator.next();
      if (!step.done && step.value.kind === 'event') {
        open = tracer.startSpan(name, { attributes: { ...attributes, ...eventAttributes(step.value.event), [ATTR.count]: 1 } });
      }
      return step;
    },
    return: async (value?: unknown) => {
      finish();
      return (await iterator.return?.(value)) ?? { done: true, value: undefined };
    },
    throw: async (error?: unknown) => {
      if (open) recordFailure(open, error);
      finish();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
  return {
    [Symbol.asyncIterator]: () => traced,
    close: async () => {
      finish();
      await inner.close();
    },
  };
};

/**
 * The storage port with OpenTelemetry spans (through `@opentelemetry/api`, so a no-op unless the
 * host application registers an SDK): `session-ledger.append`, `.read`, `.read_all`, `.delete`,
 * `.tombstone` around each call, and `.deliver` around each event a subscription delivers, with
 * the attributes `session_ledger.stream`, `.revision`, `.position` and `.count`. Everything else
 * (checkpoints, close, optional methods, an adapter's own extras) is the store's, unchanged.
 */
export const traced = <S extends EventStore>(store: S): S => {
  const spans = {
    appendToStream: (stream, events, options) =>
      withSpan(
        'session-ledger.append',
        { [ATTR.stream]: stream, [ATTR.count]: events.length, [ATTR.expected]: formatExpected(options?.expectedRevision ?? 'any') },
        async (span) => {
          const result = await store.appendToStream(stream, events, options);
          span.setAttributes({ [ATTR.revision]: attrNumber(result.nextExpectedRevision), [ATTR.position]: attrNumber(result.position) });
          return result;
        },
      ),
    readStream: (stream, options) =>
      withSpan('session-ledger.read', { [ATTR.stream]: stream }, async (span) => {
        const events = await store.readStream(stream, options);
        const last = events[events.length - 1];
        span.setAttributes({ [ATTR.count]: events.length, ...(last ? { [ATTR.revision]: attrNumber(last.revision) } : {}) });
        return events;
      }),
    readAll: (options) =>
      withSpan('session-ledger.read_all', { [ATTR.stream]: '$all' }, async (span) => {
        const events = await store.readAll(options);
        const last = events[events.length - 1];
        span.setAttributes({ [ATTR.count]: events.length, ...(last ? { [ATTR.position]: attrNumber(last.position) } : {}) });
        return events;
      }),
    deleteStream: (stream, options) =>
      withSpan('session-ledger.delete', { [ATTR.stream]: stream, [ATTR.expected]: formatExpected(options?.expectedRevision ?? 'any') }, () =>
        store.deleteStream(stream, options),
      ),
    tombstoneStream: (stream, options) =>
      withSpan('session-ledger.tombstone', { [ATTR.stream]: stream, [ATTR.expected]: formatExpected(options?.expectedRevision ?? 'any') }, () =>
        store.tombstoneStream(stream, options),
      ),
    subscribeToStream: (stream, options) => tracedSubscription(store.subscribeToStream(stream, options), 'session-ledger.deliver', { 'session_ledger.subscription': stream }),
    subscribeToAll: (options) => tracedSubscription(store.subscribeToAll(options), 'session-ledger.deliver', { 'session_ledger.subscription': '$all' }),
  } satisfies Partial<EventStore>;
  // Everything else (name, checkpoints, close, optional methods, an adapter's own extras) is the store's own.
  return new Proxy(store, {
    get(target, key) {
      if (Object.hasOwn(spans, key)) return spans[key as keyof typeof spans];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

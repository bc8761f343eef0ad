import { context, isSpanContextValid, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { isLedgerError } from './errors.js';

/** The tracer every span of session-ledger comes from: a no-op unless the host registered an SDK. */
export const TRACER_NAME = '@session-ledger/core';

/** Attribute names (namespaced, so they never collide with the host's). */
export const ATTR = {
  stream: 'session_ledger.stream',
  revision: 'session_ledger.revision',
  count: 'session_ledger.count',
  position: 'session_ledger.position',
  expected: 'session_ledger.expected_revision',
  session: 'session_ledger.session',
  errorType: 'session_ledger.error_type',
} as const;

/** bigint revisions and positions as span attribute values (numbers while exact, else strings). */
export const attrNumber = (value: bigint | number): number | string =>
  typeof value === 'number' ? value : value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();

/** Marks a span failed with the error (and its LedgerError type). */
export const recordFailure = (span: Span, error: unknown): void => {
  if (isLedgerError(error)) span.setAttribute(ATTR.errorType, error.type);
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
};

/** A proxy: it finds the host's SDK whenever one is registered, before or after this module loads. */
const tracer = trace.getTracer(TRACER_NAME);

/**
 * Runs `run` in an active span named `name`; the span ends when it settles and records a failure.
 * Without an SDK the span is the API's no-op (its context invalid): `run` is then called directly,
 * so an untraced process pays for one object and no extra context switch.
 */
export const withSpan = async <T>(name: string, attributes: Attributes, run: (span: Span) => Promise<T>): Promise<T> => {
  const span = tracer.startSpan(name, { attributes });
  if (!isSpanContextValid(span.spanContext())) return run(span);
  try {
    return await context.with(trace.setSpan(context.active(), span), () => run(span));
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
};

/**
 * Wraps a public entry function in a span: `before` names the attributes known from the
 * arguments (given as one array), `after` those known from the result. The function's signature is unchanged.
 */
export const spanned =
  <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>, before: (args: NoInfer<A>) => Attributes, after: (result: NoInfer<R>) => Attributes = () => ({})) =>
  (...args: A): Promise<R> =>
    withSpan(name, before(args), async (span) => {
      const result = await fn(...args);
      span.setAttributes(after(result));
      return result;
    });

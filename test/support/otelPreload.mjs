// Loaded with `node --import` into a CLI process: registers an OpenTelemetry SDK whose exporter
// appends each finished span to $SPANS_FILE as one JSON line (what a host application's SDK would get).
import { appendFileSync } from 'node:fs';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const file = process.env.SPANS_FILE;
const exporter = {
  export(spans, done) {
    for (const span of spans) appendFileSync(file, `${JSON.stringify({ name: span.name, attributes: span.attributes, parent: span.parentSpanContext?.spanId ?? null, id: span.spanContext().spanId })}\n`);
    done({ code: 0 });
  },
  shutdown: async () => undefined,
};
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

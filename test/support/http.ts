import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { startCli, tempDir } from './cli.js';

/** The JSON error every 4xx/5xx answer carries (`LedgerError.toJSON()` or the router's own). */
export const errorBody = z.object({
  error: z.object({ type: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

/** Reads a JSON body and checks its shape, so a test reads typed fields instead of `unknown`. */
export const bodyOf = async <S extends z.ZodType>(response: Response, schema: S): Promise<z.infer<S>> => schema.parse(await response.json());

/** The `error` object of an error answer. */
export const errorOf = async (response: Response) => (await bodyOf(response, errorBody)).error;

/** Starts `session-ledger serve` on a free loopback port and returns its base URL. */
export const startServer = async (env: Record<string, string>, extraArgs: string[] = []) => {
  const server = startCli(['serve', '--port', '0', '--json', ...extraArgs], env);
  await server.waitFor((out) => out.includes('"url"'), 'the listening line');
  const { url } = JSON.parse(server.stdout()) as { url: string };
  return { url, stop: server.stop, server };
};

/**
 * `session-ledger serve` on a fresh SQLite ledger for the enclosing describe: started before its
 * tests, stopped after them. Read `url` inside a test (it is set once the server listens).
 */
export const servedSqlite = (extraArgs: string[] = []) => {
  const served = { env: { SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` }, url: '' };
  let service: Awaited<ReturnType<typeof startServer>> | undefined;
  beforeAll(async () => {
    service = await startServer(served.env, extraArgs);
    served.url = service.url;
  });
  afterAll(async () => service?.stop());
  return served;
};

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** A minimal Server-Sent Events reader over fetch: collects events until `until` says stop. */
export const readSse = async (
  url: string,
  options: { lastEventId?: string; headers?: Record<string, string>; until: (events: SseEvent[]) => boolean; timeoutMs?: number },
): Promise<SseEvent[]> => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 20_000);
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const events: SseEvent[] = [];
  try {
    const response = await fetch(url, { headers, signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let split: number;
      while ((split = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, split);
        buffer = buffer.slice(split + 2);
        const event: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const [field, ...rest] = line.split(':');
          const text = rest.join(':').replace(/^ /, '');
          if (field === 'id') event.id = text;
          else if (field === 'event') event.event = text;
          else if (field === 'data') event.data += text;
        }
        if (event.id || event.event || event.data) events.push(event);
        if (options.until(events)) {
          controller.abort();
          return events;
        }
      }
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    clearTimeout(timer);
  }
  return events;
};

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => any;
}

/**
 * One request with full control of its headers (Host, Origin, Content-Type, or none at all), which
 * fetch does not give: the security cases need exactly what a browser or an attacker would send.
 */
export const rawRequest = (
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    let responded = false;
    const base = new URL(url);
    const req = httpRequest(
      { host: base.hostname, port: base.port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers, setHost: !options.headers?.host },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    // A server that refuses a large body answers before reading it, and the rest of the upload then fails: the answer counts.
    req.on('error', (error) => (responded ? undefined : reject(error)));
    req.end(options.body);
  });

/**
 * Reads an SSE response as raw text (every line, `retry:` and comments included) until `until`
 * says stop, then closes it. Resolves with the status, the headers and the text.
 */
export const readRawSse = (
  url: string,
  options: { headers?: Record<string, string>; until: (text: string) => boolean; timeoutMs?: number },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { accept: 'text/event-stream', ...options.headers } }, (res) => {
      let text = '';
      const finish = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (options.until(text)) finish();
      });
      res.on('end', finish);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`No end to the SSE stream of ${url} in time`));
    }, options.timeoutMs ?? 20_000);
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });

/**
 * Sends raw bytes (any request line, repeated headers) and reads the whole answer until the server
 * closes the connection: what neither fetch nor node:http lets a test send. `halfClose: false` leaves
 * the client's side open (the server then closes on its own terms, as after a refusal).
 */
export const rawBytes = (url: string, request: string, { halfClose = true } = {}): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => (halfClose ? socket.end(request) : socket.write(request)));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on(halfClose ? 'end' : 'close', () => resolve(answer));
    socket.on('error', reject);
  });

import { connect } from 'node:net';

/** One keep-alive HTTP/1.1 connection, one request at a time (see rawHttpClient). */
export interface RawHttpClient {
  /** POSTs a JSON body; resolves with the status once the whole answer is read, rejects on a status >= 300. */
  post(path: string, body: string): Promise<number>;
  close(): void;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[ \t]*chunked/i;

/** Where the answer at the start of `buffer` ends (its length), or -1 while it is incomplete. */
const answerEnd = (buffer: Buffer): number => {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return -1;
  const head = buffer.toString('latin1', 0, headEnd);
  const bodyStart = headEnd + 4;
  const length = CONTENT_LENGTH.exec(head);
  if (length) return buffer.length >= bodyStart + Number(length[1]) ? bodyStart + Number(length[1]) : -1;
  if (!CHUNKED.test(head)) return bodyStart; // no body (204, 304)
  // Chunks: a hex size line, the bytes, CRLF; the last chunk has size 0 (no trailers are sent here).
  for (let at = bodyStart; ; ) {
    const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return -1;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    const next = lineEnd + 2 + size + 2;
    if (buffer.length < next) return -1;
    if (size === 0) return next;
    at = next;
  }
};

/**
 * The load generator's client for the HTTP throughput rows: a bare socket writing each request as
 * one preformatted string and reading the answer's status line and framing (Content-Length or
 * chunked) without a parser object, a stream or an event per request. It shares the machine's
 * two cores with the server it measures, so what it saves goes to the server: node:http's
 * keep-alive Agent cost ~130-145 us of CPU per request here, about twice a bare server's.
 */
export const rawHttpClient = (url: string): Promise<RawHttpClient> =>
  new Promise((ready, failed) => {
    const { hostname, port, host } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    let buffer: Buffer | null = null;
    let waiting: { resolve: (status: number) => void; reject: (error: Error) => void; path: string } | null = null;

    const fail = (error: Error) => {
      const current = waiting;
      waiting = null;
      current?.reject(error);
    };
    socket.once('connect', () => {
      socket.off('error', failed);
      socket.on('error', fail);
      ready(client);
    });
    socket.once('error', failed);
    socket.on('close', () => fail(new Error(`${url}: the server closed the connection`)));
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer === null ? chunk : Buffer.concat([buffer, chunk]);
      const end = answerEnd(buffer);
      if (end < 0) return;
      const answer = buffer;
      buffer = end === answer.length ? null : answer.subarray(end);
      const status = Number(answer.toString('latin1', 9, 12));
      const current = waiting;
      waiting = null;
      if (!current) return;
      if (status < 300) current.resolve(status);
      else current.reject(new Error(`POST ${current.path}: ${status} ${answer.toString('utf8', 0, end)}`));
    });

    const client: RawHttpClient = {
      post: (path, body) =>
        new Promise((resolve, reject) => {
          if (waiting) return reject(new Error('one request at a time'));
          waiting = { resolve, reject, path };
          socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        }),
      close: () => void socket.destroy(),
    };
  });

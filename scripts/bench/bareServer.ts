import { createServer } from 'node:http';

/**
 * The HTTP ceiling's server (httpCeiling.ts), run as a process of its own like `session-ledger
 * serve`: node:http answering every request, once its body is read, with a 201 and a small JSON of
 * the size the message route answers. No routing, no parse, no ledger: what any Node HTTP server
 * costs per request on this machine. Prints `{"url": ...}` when listening; SIGTERM stops it.
 */
const ANSWER = JSON.stringify({ sessionId: '01KBE2Q4ZJ8V3C9XH7T5N6M2PA-12', revision: 40, position: 1234, written: true, messageId: 'm-39' });

const server = createServer((req, res) => {
  req.resume();
  req.once('end', () => {
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
});

import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { workerPids } from '@session-ledger/cli';

export const MB = 1024 * 1024;

/** A process's resident memory, from /proc (Linux, where CI runs). */
const rssOfOne = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** A server's resident memory: its process and its workers (`serve --workers N`, SESSION_LEDGER_WORKERS). */
export const rssOf = (pid: number): number => [pid, ...workerPids(pid)].reduce((sum, each) => sum + rssOfOne(each), 0);

/** Waits until the server's memory stops growing (no growth of 1 MiB over 2 s), at most 30 s. */
export const settledRss = async (pid: number): Promise<number> => {
  let last = rssOf(pid);
  for (let i = 0; i < 15; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const now = rssOf(pid);
    if (now - last < MB) return Math.max(now, last);
    last = now;
  }
  return last;
};

/** A client that asks for `path` (with `accept`, when given) and then never reads a byte of the answer. */
export const stalledClient = (url: string, path: string, accept?: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${accept ? `Accept: ${accept}\r\n` : ''}\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });

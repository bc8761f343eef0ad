import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { workerPids } from '@session-ledger/cli';
import { newId } from '@session-ledger/core';
import { benchMessage } from './messages.js';
import { rawHttpClient, type RawHttpClient } from './rawHttp.js';

/**
 * The 32-client load of the HTTP throughput rows (groupCommit.ts, httpCeiling.ts): keep-alive
 * clients, one socket each, each posting messages to its own session, one request at a time.
 * The bodies are built before the clock starts; the client is rawHttp.ts (it shares the cores).
 */
export const CLIENTS = 32;

/** A server in a process of its own: `args` to node, which prints `{"url": ...}` on its first stdout line. */
export const startProcess = (args: string[]): Promise<{ url: string; child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: (JSON.parse(out) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });

export const stopProcess = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
};

/** A process's CPU time so far (user + system), in microseconds, from /proc (Linux). */
export const processCpuMicros = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5): 11 and 12 after the command name and state.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
};

/** The CPU time of a server: its process and its worker processes (`serve --workers N`), in microseconds. */
export const serverCpuMicros = (pid: number): number => [pid, ...workerPids(pid)].reduce((sum, each) => sum + processCpuMicros(each), 0);

/** The clients: one keep-alive connection each (rawHttp.ts). */
export const openClients = (url: string): Promise<RawHttpClient[]> => Promise.all(Array.from({ length: CLIENTS }, () => rawHttpClient(url)));

export const closeClients = (clients: RawHttpClient[]): void => clients.forEach((client) => client.close());

/** The body of message `n` as the HTTP row posts it. */
export const messageBody = (n: number): string => {
  const { id: _id, ...message } = benchMessage(n);
  return JSON.stringify({ ...message, id: `m-${n}` });
};

/** One trial's sessions: POST /sessions for each client under a fresh prefix. */
export const startSessions = async (clients: RawHttpClient[]): Promise<string> => {
  const prefix = newId();
  await Promise.all(clients.map((client, index) => client.post('/sessions', JSON.stringify({ id: `${prefix}-${index}` }))));
  return prefix;
};

/** Every client posts `each` messages to its own session, one at a time. */
export const postMessages = async (clients: RawHttpClient[], prefix: string, each: number): Promise<void> => {
  const bodies = Array.from({ length: each }, (_, n) => messageBody(n));
  await Promise.all(
    clients.map(async (client, index) => {
      const path = `/sessions/${prefix}-${index}/messages`;
      for (const body of bodies) await client.post(path, body);
    }),
  );
};

/** CPU spent on the posts of a trial: the server process's and this (load generator) process's. */
export interface PostCpu {
  server: number;
  client: number;
  messages: number;
}

/** Posts `each` messages from every client, adding the server's and the clients' CPU (microseconds) to `cpu`. */
export const timedPosts = async (clients: RawHttpClient[], serverPid: number, prefix: string, each: number, cpu: PostCpu): Promise<void> => {
  const serverBefore = serverCpuMicros(serverPid);
  const clientBefore = process.cpuUsage();
  await postMessages(clients, prefix, each);
  const client = process.cpuUsage(clientBefore);
  cpu.server += serverCpuMicros(serverPid) - serverBefore;
  cpu.client += client.user + client.system;
  cpu.messages += clients.length * each;
};

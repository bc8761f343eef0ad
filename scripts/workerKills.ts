// `node scripts/dist/workerKills.js [rounds]`: what clients see when a worker of `serve --workers 2`
// is killed (SIGKILL) under load, with node:cluster's round robin (rr, the default) and with the OS
// distributing connections (none: NODE_CLUSTER_SCHED_POLICY=none), rounds alternating. 16 clients
// post messages, each on a new connection with a 3 s timeout; 5 kills a round, 1.5 s apart (the
// restart budget allows 5 in 60 s). Counts answers, errors (reset: the client may retry at once)
// and connections never answered (hung: the client waits for its timeout). docs/benchmarks.md, "Session 9".
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { workerPids } from '@session-ledger/cli';
import { scratch } from './bench/measure.js';

const CLI = new URL('../../packages/cli/bin/session-ledger.js', import.meta.url).pathname;
const CLIENTS = 16;
const KILLS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = 'ok' | 'reset' | 'refused' | 'hung' | 'other';

const post = (url: URL, path: string, body: unknown): Promise<Outcome> =>
  new Promise((resolve) => {
    let timedOut = false;
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 201 ? 'ok' : 'other'));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(timedOut ? 'hung' : error.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
    req.setTimeout(3_000, () => {
      timedOut = true;
      req.destroy();
    });
    req.end(JSON.stringify(body));
  });

const round = async (policy: 'rr' | 'none') => {
  const dir = scratch('worker-kills');
  const env = { ...process.env, SESSION_LEDGER_STORE: `sqlite:${dir.file('ledger.sqlite')}`, NODE_CLUSTER_SCHED_POLICY: policy };
  const server = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--json', '--workers', '2'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  server.stdout.on('data', (chunk) => (out += chunk));
  server.stderr.on('data', (chunk) => (err += chunk));
  while (!out.includes('}')) await sleep(20);
  const url = new URL((JSON.parse(out) as { url: string }).url);
  const tally: Partial<Record<Outcome, number>> = {};
  let running = true;
  const clients = Array.from({ length: CLIENTS }, async (_, client) => {
    await post(url, '/sessions', { id: `s${client}` });
    while (running) {
      const outcome = await post(url, `/sessions/s${client}/messages`, { role: 'user', content: 'x' });
      tally[outcome] = (tally[outcome] ?? 0) + 1;
    }
  });
  await sleep(1_000);
  for (let kill = 0; kill < KILLS; kill += 1) {
    const workers = workerPids(server.pid!);
    process.kill(workers[kill % workers.length]!, 'SIGKILL');
    await sleep(1_500);
  }
  await sleep(3_500);
  running = false;
  await Promise.all(clients);
  server.kill('SIGTERM');
  await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
  dir.remove();
  return { policy, kills: (err.match(/starting another/g) ?? []).length, ...tally };
};

const rounds = Number(process.argv[2] ?? 4);
for (let index = 0; index < rounds; index += 1) {
  for (const policy of index % 2 === 0 ? (['rr', 'none'] as const) : (['none', 'rr'] as const)) {
    console.log(JSON.stringify({ at: new Date().toISOString().slice(11, 19), ...(await round(policy)) }));
  }
}

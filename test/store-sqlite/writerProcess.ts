import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./fixtures/writer.mjs', import.meta.url));

/** The child writers import the built store: build it (and core) once per test file. */
export const buildStore = (): void => {
  execFileSync('npx', ['tsc', '-b', 'packages/store-sqlite'], { cwd: ROOT, stdio: 'inherit' });
};

export interface WriterReply {
  seq: number;
  ok: boolean;
  type?: string;
  next?: string;
}

export interface WriterProcess {
  /** Sends one command; resolves with the child's reply. */
  send(command: Record<string, unknown>): Promise<WriterReply>;
  stop(): Promise<void>;
}

/** A writer in its own node process, on the same SQLite file. */
export const startWriter = async (file: string): Promise<WriterProcess> => {
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map<number, (reply: WriterReply) => void>();
  let seq = 0;
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as WriterReply & { ready?: boolean };
    if (message.ready) return onReady();
    pending.get(message.seq)?.(message);
    pending.delete(message.seq);
  });
  await Promise.race([ready, exited.then(() => Promise.reject(new Error('writer process exited before it was ready')))]);
  return {
    send: (command) =>
      new Promise((resolve) => {
        seq += 1;
        pending.set(seq, resolve);
        child.stdin!.write(`${JSON.stringify({ ...command, seq })}\n`);
      }),
    stop: async () => {
      child.stdin!.end();
      await exited;
    },
  };
};

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const PRELOAD = pathToFileURL(resolve(__dirname, '../support/otelPreload.mjs')).href;

describe('OpenTelemetry through the CLI', { timeout: 120_000 }, () => {
  it('every store a command opens is traced once the host registers an SDK, and nothing is emitted without one', () => {
    const dir = tempDir();
    const spansFile = join(dir, 'spans.jsonl');
    const env = { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}`, SPANS_FILE: spansFile };
    const plain = runCli(['events', 'append', 'orders-1', '--type', 'placed', '--data', '{"n":1}'], { env });
    expect(plain.code).toBe(0);
    expect(existsSync(spansFile)).toBe(false);

    const withSdk = { ...env, NODE_OPTIONS: `--import=${PRELOAD}` };
    expect(runCli(['events', 'append', 'orders-1', '--type', 'placed', '--data', '{"n":2}'], { env: withSdk }).code).toBe(0);
    expect(runCli(['events', 'read', 'orders-1'], { env: withSdk }).code).toBe(0);
    const spans = readFileSync(spansFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(spans.find((span) => span.name === 'session-ledger.append')?.attributes).toMatchObject({
      'session_ledger.stream': 'orders-1',
      'session_ledger.revision': 1,
      'session_ledger.count': 1,
    });
    expect(spans.filter((span) => span.name === 'session-ledger.read').at(-1)?.attributes).toMatchObject({
      'session_ledger.stream': 'orders-1',
      'session_ledger.count': 2,
    });
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const storeIn = (dir: string) => ({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` });

const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);

describe('events append on the reserved stream families (CLI)', () => {
  it('a bogus event on a session stream: exit 2 naming the type, nothing stored; the session stays readable and deletable', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 'X', '--title', 't'], { env }).code).toBe(0);
    expect(runCli(['messages', 'append', 'X', '--role', 'user', '--content', 'hello'], { env }).code).toBe(0);

    const bogus = runCli(['events', 'append', 'session-X', '--type', 'bogus', '--data', '{}'], { env });

    expect(bogus.code).toBe(2);
    oneLine(bogus.stderr);
    expect(bogus.stderr).toContain('"bogus" is not a session event type');
    const invalid = runCli(['events', 'append', 'session-X', '--type', 'message.appended', '--data', '{"messageId":"m9","role":"robot","content":"x","timestamp":"2026-03-01T10:00:00Z"}'], { env });
    expect(invalid.code).toBe(2);
    oneLine(invalid.stderr);
    expect(invalid.stderr).toContain('message.appended');
    expect(runCli(['events', 'read', 'session-X', '--json'], { env }).json().map((e: { type: string }) => e.type)).toEqual(['session.started', 'message.appended']);
    const shown = runCli(['sessions', 'show', 'X', '--json'], { env });
    expect(shown.code).toBe(0);
    expect(JSON.stringify(shown.json())).toContain('hello');
    expect(runCli(['sessions', 'delete', 'X'], { env }).code).toBe(0);
  });

  it('a raw event never creates a session stream; a valid one on an existing segment is stored and read', () => {
    const env = storeIn(tempDir());
    const data = JSON.stringify({ messageId: 'm1', role: 'user', content: 'raw', timestamp: '2026-03-01T10:00:00Z' });
    const orphan = runCli(['events', 'append', 'session-nobody', '--type', 'message.appended', '--data', data], { env });
    expect(orphan.code).toBe(2);
    oneLine(orphan.stderr);
    expect(runCli(['events', 'read', 'session-nobody'], { env }).code).toBe(3);
    expect(runCli(['sessions', 'start', '--id', 'Y'], { env }).code).toBe(0);
    const retry = ['events', 'append', 'session-Y', '--type', 'message.appended', '--data', data, '--id', '4b6f2f7e-8f1e-4c55-9d43-6f1f0c1a2b3c'];
    expect(runCli(retry, { env }).code).toBe(0);
    expect(runCli(retry, { env }).code).toBe(0); // a retry with the same id writes nothing
    expect(runCli(['events', 'read', 'session-Y', '--json'], { env }).json()).toHaveLength(2);
    expect(JSON.stringify(runCli(['sessions', 'show', 'Y', '--json'], { env }).json())).toContain('raw');
  });

  it('a forged ledger-audit deletion record is refused (exit 2) and the audit stream is untouched', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 'Z'], { env }).code).toBe(0);
    expect(runCli(['sessions', 'delete', 'Z'], { env }).code).toBe(0);
    const before = runCli(['events', 'read', 'ledger-audit', '--json'], { env }).json();
    const forged = JSON.stringify({ rootId: 'W', requestedId: 'W', lineage: 'logical', reason: 'delete', streams: [], deleted: ['session-W'], kept: [], complete: true, export: null, at: '2026-03-01T10:00:00Z' });

    const result = runCli(['events', 'append', 'ledger-audit', '--type', 'retention.deleted', '--data', forged], { env });

    expect(result.code).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toContain('retention.deleted');
    expect(runCli(['events', 'read', 'ledger-audit', '--json'], { env }).json()).toEqual(before);
    expect(runCli(['events', 'append', 'memory-default', '--type', 'bogus', '--data', '{}'], { env }).code).toBe(2);
  });

  it('a type or id with a control character, or data with a lone surrogate, is refused (exit 2) on any stream', () => {
    const env = storeIn(tempDir());
    expect(runCli(['events', 'append', 'other', '--type', 'placed', '--data', '{}'], { env }).code).toBe(0);
    for (const args of [
      ['--type', 'placed\u0007', '--data', '{}'],
      ['--type', 'placed', '--data', '{}', '--id', 'id\u001b[2J'],
      ['--type', 'placed', '--data', '{"text":"\\ud800"}'],
    ]) {
      const result = runCli(['events', 'append', 'orders', ...args], { env });
      expect(result.code).toBe(2);
      oneLine(result.stderr);
    }
    expect(runCli(['events', 'read', 'orders'], { env }).code).toBe(3);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const storeIn = (dir: string) => ({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` });

const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);

describe('events append on the reserved stream families (CLI)', () => {
  it('no raw event on a session stream, bogus or valid: exit 2 in one line, nothing stored; the session stays readable and deletable', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 'X', '--title', 't'], { env }).code).toBe(0);
    expect(runCli(['messages', 'append', 'X', '--role', 'user', '--content', 'hello'], { env }).code).toBe(0);
    expect(runCli(['turns', 'begin', 'X', '--owner', 'harness-a', '--ttl', '10m'], { env }).code).toBe(0);

    const bogus = runCli(['events', 'append', 'session-X', '--type', 'bogus', '--data', '{}'], { env });
    expect(bogus.code).toBe(2);
    oneLine(bogus.stderr);
    expect(bogus.stderr).toContain('"bogus"');
    // Valid events that broke the rules the writers keep (outside test, session 17): a second live turn, a message without the turn's fence.
    const at = new Date().toISOString();
    const secondTurn = JSON.stringify({ turnId: 't-raw', owner: 'harness-b', startedAt: at, leaseExpiresAt: new Date(Date.now() + 600_000).toISOString() });
    const message = JSON.stringify({ messageId: 'm9', role: 'user', content: 'raw', timestamp: at });
    for (const [type, data] of [['turn.started', secondTurn], ['message.appended', message]] as const) {
      const refused = runCli(['events', 'append', 'session-X', '--type', type, '--data', data], { env });
      expect(refused.code).toBe(2);
      oneLine(refused.stderr);
      expect(refused.stderr).toContain('written only through the sessions API');
    }
    expect(runCli(['events', 'read', 'session-X', '--json'], { env }).json().map((e: { type: string }) => e.type)).toEqual(['session.started', 'message.appended', 'turn.started']);
    const shown = runCli(['sessions', 'show', 'X', '--json'], { env });
    expect(shown.code).toBe(0);
    expect(JSON.stringify(shown.json())).toContain('hello');
    expect(runCli(['events', 'append', 'session-nobody', '--type', 'message.appended', '--data', message], { env }).code).toBe(2);
    expect(runCli(['events', 'read', 'session-nobody'], { env }).code).toBe(3);
  });

  it('no raw event on a memory stream: an add reusing an entry id would change another entry', () => {
    const env = storeIn(tempDir());
    const added = runCli(['memory', 'add', '--target', 'user', '--content', 'Likes tea', '--json'], { env });
    expect(added.code).toBe(0);
    const before = runCli(['memory', 'list', '--json'], { env }).stdout;
    const [entry] = runCli(['events', 'read', 'memory-default', '--json'], { env }).json() as Array<{ data: { entryId: string } }>;

    const reused = runCli(['events', 'append', 'memory-default', '--type', 'memory.entry_added', '--data', JSON.stringify({ entryId: entry!.data.entryId, target: 'user', content: 'Hates tea' })], { env });

    expect(reused.code).toBe(2);
    oneLine(reused.stderr);
    expect(reused.stderr).toContain('written only through the memory ledger');
    expect(runCli(['memory', 'list', '--json'], { env }).stdout).toBe(before);
  });

  it('a forged ledger-audit deletion record is refused (exit 2) and the audit stream is untouched', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 'Z'], { env }).code).toBe(0);
    expect(runCli(['sessions', 'delete', 'Z', '--yes'], { env }).code).toBe(0);
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

  // Outside test, session 23: `events append ""` stored a stream EventStoreDB refuses, and `audit verify --stream ""` then checked every stream.
  it("an empty stream name is refused (exit 2), and audit verify --stream names only the stream it is given", () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const refused = runCli(['events', 'append', '', '--type', 't', '--data', '{}'], { env });
    expect(refused.code).toBe(2);
    oneLine(refused.stderr);
    expect(refused.stderr).toMatch(/stream name is empty/);
    expect(runCli(['events', 'append', 'x', '--type', 't', '--data', '{}'], { env }).code).toBe(0);
    expect(runCli(['events', 'append', 'y', '--type', 't', '--data', '{}'], { env }).code).toBe(0);
    expect(runCli(['--json', 'audit', 'verify', '--stream', 'x'], { env }).json()).toMatchObject({ ok: true, streams: 1 });
    // Not stored, so not found: never the whole ledger's report.
    expect(runCli(['audit', 'verify', '--stream', ''], { env }).code).toBe(3);
  });

  it('metadata that is JSON but no object is refused in words that say so', () => {
    const env = storeIn(tempDir());
    for (const [metadata, what] of [['null', 'null'], ['[1]', 'an array'], ['3', 'a number']] as const) {
      const result = runCli(['events', 'append', 'x', '--type', 't', '--data', '{}', '--metadata', metadata], { env });
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(`session-ledger: --metadata must be a JSON object, not ${what}`);
    }
  });

  // Outside test, session 23: the same id in upper and lower case was stored twice (revisions 0 and 1).
  it('an event id is one event however its case is spelled: the retry in the other case stores nothing', () => {
    const env = storeIn(tempDir());
    const upper = 'AAAAAAAA-1111-4111-8111-111111111111';
    expect(runCli(['events', 'append', 'uc', '--type', 't', '--data', '{"a":1}', '--id', upper], { env }).code).toBe(0);
    const retry = runCli(['--json', 'events', 'append', 'uc', '--type', 't', '--data', '{"a":1}', '--id', upper.toLowerCase()], { env });
    expect(retry.json()).toMatchObject({ written: false });
    const stored = runCli(['--json', 'events', 'read', 'uc'], { env }).json() as Array<{ id: string }>;
    expect(stored.map((event) => event.id)).toEqual([upper.toLowerCase()]);
  });

  // Outside test, session 23: "Not a JSON number: Infinity", naming neither the option nor the place.
  it('a number past a double (1e400) is refused naming the option and the place', () => {
    const result = runCli(['events', 'append', 'x', '--type', 't', '--data', '{"a":[1,-1e400]}'], { env: storeIn(tempDir()) });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: 'session-ledger: Refused: --data (at $.a[1] (a number)) holds a number too large for JSON to read as one (it reads as Infinity); nothing was stored\n' });
  });
});

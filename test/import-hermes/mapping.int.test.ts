import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore, readWholeStream, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { loadConversation } from '@session-ledger/sessions';
import { importHermes, readSnapshot, type HermesSnapshot } from '@session-ledger/import-hermes';
import type { HermesFixture } from './fixtures/hermesDb.js';
import { buildCurrentEra, tempDir, UNICODE_TEXT } from './fixtures/scenarios.js';

const ROOT = '20260424_143733_1abb38';
const MIDDLE = '20260424_144905_134d65';
const TIP = '20260424_145134_bba836';

let h: HermesFixture;
let store: EventStore;
let snap: HermesSnapshot;
const events = (id: string): Promise<RecordedEvent[]> => readWholeStream(store, sessionStream(id));
const data = (event: RecordedEvent) => event.data as Record<string, any>;

beforeAll(async () => {
  h = buildCurrentEra(join(tempDir(), 'state.db'));
  store = createMemoryStore();
  await importHermes(store, { path: h.path });
  snap = readSnapshot(h.path);
});
afterAll(() => h.close());

describe('what the ledger holds after an import', () => {
  it('keeps session ids, metadata and unknown columns; links compression segments to their root', async () => {
    const [start] = await events(ROOT);
    expect(start!.type).toBe('session.started');
    expect(data(start!)).toMatchObject({ sessionId: ROOT, rootId: ROOT, parentId: null, link: null, title: 'Refactor the parser', model: 'hermes-4-70b', source: 'cli' });
    expect(data(start!).extra.hermes.columns).toMatchObject({ cwd: '/work/app', git_branch: 'main' });
    const [tipStart] = await events(TIP);
    expect(data(tipStart!)).toMatchObject({ sessionId: TIP, rootId: ROOT, parentId: MIDDLE, link: 'compression', summary: '[CONTEXT COMPACTION] Segment two summary.' });
    const rootEvents = await events(ROOT);
    expect(rootEvents.at(-1)!.type).toBe('session.continued');
    expect(data(rootEvents.at(-1)!)).toMatchObject({ childId: MIDDLE, summary: '[CONTEXT COMPACTION] Earlier we read README three times.' });
  });

  it('resumes the whole chain from any of its ids', async () => {
    const fromRoot = await loadConversation(store, ROOT);
    const fromTip = await loadConversation(store, TIP);
    expect(fromTip.messages.map((m) => m.id)).toEqual(fromRoot.messages.map((m) => m.id));
    expect(fromRoot.segments.map((s) => s.sessionId)).toEqual([ROOT, MIDDLE, TIP]);
    expect(fromRoot.messages).toHaveLength(12 + 8 + 2);
  });

  it('links delegated and branched children as such', async () => {
    expect((await events('rewound')).map((e) => [e.type, data(e).childId, data(e).link]).filter(([t]) => t === 'session.child_linked')).toEqual([
      ['session.child_linked', 'branch-child', 'branch'],
    ]);
    expect((await events('inplace')).some((e) => e.type === 'session.child_linked' && data(e).link === 'delegation')).toBe(true);
    expect(data((await events('delegate-child'))[0]!)).toMatchObject({ link: 'delegation', parentId: 'inplace', rootId: 'delegate-child' });
  });

  it('carries role, content, tool calls, tool call id and name, timestamp, token count, finish reason and reasoning', async () => {
    const rows = snap.messages.get(ROOT)!;
    const messages = (await events(ROOT)).filter((e) => e.type === 'message.appended').map(data);
    expect(messages).toHaveLength(rows.length);
    const call = messages[1]!;
    expect(call).toMatchObject({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: `call_${ROOT}_first_0`, type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } }],
      finishReason: 'tool_calls',
      reasoning: 'I should read the file (0)',
      tokenCounts: { total: 40 },
      timestamp: new Date(rows[1]!.timestamp! * 1000).toISOString(),
    });
    expect(call.extra.hermes).toMatchObject({ rowId: rows[1]!.rowId, timestamp: rows[1]!.timestamp });
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: `call_${ROOT}_first_0`, toolName: 'read_file', content: '# README 0' });
  });

  it('keeps unicode content byte for byte and unknown message columns in extra', async () => {
    const tip = (await events(TIP)).filter((e) => e.type === 'message.appended').map(data);
    expect(tip[0]!.content).toBe(UNICODE_TEXT);
    expect(Buffer.from(tip[1]!.content, 'utf8').equals(Buffer.from(`Echo: ${UNICODE_TEXT}`, 'utf8'))).toBe(true);
    const sure = (await events('rewound')).map(data).find((d) => d.content === 'Sure.')!;
    expect(sure.extra.hermes.columns).toMatchObject({ platform_message_id: 'tg-42', display_kind: 'plain' });
  });

  it('records rewound rows as rewound, and in-place compactions with their summaries', async () => {
    const rewound = (await events('rewound')).filter((e) => e.type === 'history.rewound').map(data);
    expect(rewound).toHaveLength(1);
    expect(rewound[0]!.messageIds).toHaveLength(4);
    const display = await loadConversation(store, 'rewound');
    const shown = display.messages.map((m) => m.content);
    expect(shown).not.toContain('r 1: what is in README?');
    expect(shown).toContain('r 0: what is in README?');
    expect(shown.at(-1)).toBe('Sure.');
    const compactions = (await events('inplace')).filter((e) => e.type === 'history.compacted').map(data);
    expect(compactions.map((c) => c.summary)).toEqual(['[CONTEXT COMPACTION] Summary of a0..a2', '[CONTEXT COMPACTION] Summary of everything so far']);
    const active = await loadConversation(store, 'inplace', { view: 'active' });
    expect(active.messages[0]).toMatchObject({ kind: 'summary', content: '[CONTEXT COMPACTION] Summary of everything so far' });
  });
});

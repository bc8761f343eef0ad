import { describe, expect, it } from 'vitest';
import { buildImportPlan, childKind, createHermesReader, hermesViews, historySteps, parseEntries, stepEvent, stepId, type HermesMessage, type HermesSession, type HermesSnapshot, type PlanStep } from '@session-ledger/import-hermes';

let nextId = 0;
const row = (over: Partial<HermesMessage>): HermesMessage => {
  nextId += 1;
  return {
    rowId: nextId,
    sessionId: 's',
    role: 'user',
    content: `row ${nextId}`,
    toolCalls: null,
    toolCallId: null,
    toolName: null,
    timestamp: 1000 + nextId,
    tokenCount: null,
    finishReason: null,
    reasoning: null,
    state: 'active',
    summary: false,
    summaryText: false,
    extra: {},
    ...over,
  };
};
const copyOf = (original: HermesMessage, over: Partial<HermesMessage> = {}): HermesMessage => ({ ...original, rowId: ++nextId, state: 'active', ...over });
const session = (over: Partial<HermesSession>): HermesSession => ({
  id: 'c',
  source: 'cli',
  model: null,
  title: null,
  startedAt: 1,
  endedAt: null,
  endReason: null,
  parentSessionId: null,
  modelConfig: null,
  extra: {},
  ...over,
});
const shape = (steps: PlanStep[]) =>
  steps.map((step) =>
    step.kind === 'message'
      ? `m:${step.messageId}`
      : step.kind === 'compaction'
        ? `c:${step.through ?? step.messageIds.join(',')}>${step.summaryId}`
        : step.kind === 'rewind'
          ? `r:${step.messageIds.join(',')}`
          : step.kind,
  );

describe('memory file entries', () => {
  it('splits on lines holding only §, trims, drops empty and repeated entries, accepts CRLF', () => {
    expect(parseEntries('first\n§\nsecond line 1\nsecond line 2\r\n§\r\n\n§\nfirst\n§\n  third  \n')).toEqual([
      'first',
      'second line 1\nsecond line 2',
      'third',
    ]);
    expect(parseEntries('a § b\n§ not a separator\n')).toEqual(['a § b\n§ not a separator']);
    expect(parseEntries('')).toEqual([]);
    // Hermes (e89532d) reads with utf-8-sig: the BOM goes, so the entry dedups with its copy.
    expect(parseEntries('\ufeffBOM-led\n§\nsecond\n§\nBOM-led')).toEqual(['BOM-led', 'second']);
  });

  it('splits exactly where Hermes does (on "\\n§\\n") and strips as Python does (outside test, session 24)', () => {
    // each expectation is what tools/memory_tool.py's _read_file gives for the same text
    expect(parseEntries('alpha\n  §  \nbeta')).toEqual(['alpha\n  §  \nbeta']);
    expect(parseEntries('a\n§\n§\nb')).toEqual(['a', '§\nb']);
    expect(parseEntries('§\nleading')).toEqual(['§\nleading']);
    expect(parseEntries('\u001cgamma\u001c\n§\n\u0085eps\u0085\n§\n\u00a0delta\u3000')).toEqual(['gamma', 'eps', 'delta']);
  });
});

describe('lineage', () => {
  const parent = session({ id: 'p', endReason: 'compression' });
  it('follows Hermes: markers first, then the parent’s end reason', () => {
    expect(childKind(session({ parentSessionId: 'p' }), parent)).toBe('compression');
    expect(childKind(session({ parentSessionId: 'p', modelConfig: { _branched_from: 'p' } }), parent)).toBe('branch');
    expect(childKind(session({ parentSessionId: 'p', source: 'subagent' }), parent)).toBe('delegate');
    expect(childKind(session({ parentSessionId: 'p', source: 'tool' }), parent)).toBe('child');
    expect(childKind(session({ parentSessionId: 'p' }), session({ id: 'p', endReason: 'branched' }))).toBe('branch');
    expect(childKind(session({ parentSessionId: 'gone' }), undefined)).toBe('root');
  });
});

describe('history steps', () => {
  it('places a compaction before its summary, keeps carried rows as one message, and rewinds taken-back rows', () => {
    nextId = 0;
    const a = row({ state: 'compacted' });
    const b = row({ state: 'compacted' });
    const c = row({ state: 'rewound' });
    const s = row({ summary: true });
    const cCopy = copyOf(c);
    const d = row({ state: 'rewound' });
    const e = row({});
    expect(shape(historySteps('s', [a, b, c, s, cCopy, d, e]))).toEqual([
      'm:hm-1',
      'm:hm-2',
      'm:hm-3',
      'c:hm-2>hm-4',
      'm:hm-6',
      'r:hm-6',
      'm:hm-7',
    ]);
  });

  it('a second compaction takes the first summary with everything live up to its last message', () => {
    nextId = 0;
    const a = row({ state: 'compacted' });
    const s1 = row({ summary: true, state: 'compacted' });
    const b = row({ state: 'compacted' });
    const s2 = row({ summary: true });
    const steps = historySteps('s', [a, s1, b, s2]);
    expect(shape(steps)).toEqual(['m:hm-1', 'c:hm-1>hm-2', 'm:hm-3', 'c:hm-3>hm-4']);
    const second = steps[3] as Extract<PlanStep, { kind: 'compaction' }>;
    expect(second.summaryIds).toEqual(['hm-2']);
  });

  it('gives every step the same id for the same source, and a changed row a new one', () => {
    nextId = 0;
    const rows = [row({}), row({})];
    const ids = (list: HermesMessage[]) => historySteps('s', list).map((step) => stepId('session-s', step));
    expect(ids(rows)).toEqual(ids(rows.map((r) => ({ ...r }))));
    expect(ids([rows[0]!, { ...rows[1]!, content: 'edited' }])[1]).not.toBe(ids(rows)[1]);
  });
});

describe('import plan lineage', () => {
  const snapshot = (sessions: HermesSession[]): HermesSnapshot => ({
    path: 'x',
    schema: { version: 30, sessionColumns: [], messageColumns: [], hasRowFlags: true },
    sessions,
    messages: new Map(),
    messageCount: 0,
  });

  it('makes a session whose parent is itself, missing, or in a cycle a root', () => {
    const plan = buildImportPlan(
      snapshot([
        session({ id: 'self', parentSessionId: 'self', endReason: 'compression' }),
        session({ id: 'a', parentSessionId: 'b', endReason: 'compression', startedAt: 2 }),
        session({ id: 'b', parentSessionId: 'a', endReason: 'compression', startedAt: 3 }),
        session({ id: 'orphan', parentSessionId: 'gone' }),
      ]),
    );
    const links = Object.fromEntries(plan.sessions.map((s) => [s.session.id, [s.link, s.rootId]]));
    expect(links).toEqual({ self: [null, 'self'], a: [null, 'a'], b: ['compression', 'a'], orphan: [null, 'orphan'] });
  });

  it('continues a parent once, into the child Hermes resumes (here the one started last); the other is its own root; unsafe ids are skipped', () => {
    const plan = buildImportPlan(
      snapshot([
        session({ id: 'p', endReason: 'compression', startedAt: 1 }),
        session({ id: 'c1', parentSessionId: 'p', startedAt: 2 }),
        session({ id: 'c2', parentSessionId: 'p', startedAt: 3 }),
        session({ id: 'bad id/with slash', startedAt: 4 }),
      ]),
    );
    expect(plan.sessions.map((s) => [s.session.id, s.link])).toEqual([
      ['p', null],
      ['c1', null],
      ['c2', 'compression'],
    ]);
    expect(plan.skipped).toEqual([expect.objectContaining({ session: 'bad id/with slash' })]);
    expect(plan.sessions[0]!.steps.at(-1)).toMatchObject({ kind: 'continued', childId: 'c2' });
  });

  // Outside test, session 23: -1e12 s (year -29719) was taken as a time the schema then refused (the
  // session skipped), while 1e300 fell back to the epoch (imported): one rule for both now.
  it.each([-1e12, 1e300, 253402300800, -62167219201])('a start time no four-digit year can say (%d s) is the epoch, its raw value kept', (startedAt) => {
    const plan = buildImportPlan(snapshot([session({ id: 'odd', startedAt })]));
    const start = plan.sessions[0]!;
    const event = stepEvent('session-odd', start.steps[0]!, start.session)!;
    expect(event.data).toMatchObject({ startedAt: '1970-01-01T00:00:00.000Z', extra: { hermes: { startedAt } } });
  });

  it('a start time at the edges of year 0 and 9999 is kept', () => {
    const plan = buildImportPlan(snapshot([session({ id: 'a', startedAt: -62167219200 }), session({ id: 'b', startedAt: 253402300799 })]));
    expect(plan.sessions.map((s) => (stepEvent(`session-${s.session.id}`, s.steps[0]!, s.session)!.data as { startedAt: string }).startedAt)).toEqual(['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.000Z']);
  });

  // Outside test, session 23: ".." was imported, an id `sessions start` refuses and no URL can name.
  it('skips the sessions "." and "..", naming why, as every writer refuses them', () => {
    const plan = buildImportPlan(snapshot([session({ id: '.' }), session({ id: '..' }), session({ id: '...' })]));
    expect(plan.sessions.map((s) => s.session.id)).toEqual(['...']);
    expect(plan.skipped).toEqual(['.', '..'].map((id) => expect.objectContaining({ session: id, reason: expect.stringMatching(/cannot be addressed/) })));
  });
});

describe('rows Hermes writes without _compressed_summary', () => {
  const snapshot = (sessions: HermesSession[], rows: HermesMessage[]): HermesSnapshot => {
    const messages = new Map<string, HermesMessage[]>();
    for (const r of rows) messages.set(r.sessionId, [...(messages.get(r.sessionId) ?? []), r]);
    return { path: 'x', schema: { version: 21, sessionColumns: [], messageColumns: [], hasRowFlags: true }, sessions, messages, messageCount: rows.length };
  };
  it('keeps a summary-carrying row of a compression child as its message and names it as the summary', () => {
    nextId = 100;
    const p = row({ sessionId: 'p', content: 'old' });
    const head = row({ sessionId: 'c', content: 'head copy' });
    const summary = row({ sessionId: 'c', role: 'assistant', content: '[CONTEXT COMPACTION — REFERENCE ONLY] S', summaryText: true });
    const plan = buildImportPlan(
      snapshot([session({ id: 'p', endReason: 'compression', startedAt: 1 }), session({ id: 'c', parentSessionId: 'p', startedAt: 2 })], [p, head, summary]),
    );
    const child = plan.sessions[1]!;
    expect(child.steps[0]).toMatchObject({ kind: 'start', link: 'compression', summary: { id: `hm-${summary.rowId}`, inline: true } });
    expect(shape(child.steps)).toEqual(['start', `m:hm-${head.rowId}`, `m:hm-${summary.rowId}`]);
  });

  it('takes a background-review harness prompt and the reply after it back, as Hermes strips them on read', () => {
    nextId = 200;
    const q = row({ content: 'question' });
    const a = row({ role: 'assistant', content: 'answer' });
    const harness = row({ content: 'Review the conversation above and update the skill library.' });
    const reply = row({ role: 'assistant', content: 'Nothing to save.' });
    const next = row({ content: 'next' });
    expect(shape(historySteps('s', [q, a, harness, reply, next]))).toEqual([
      `m:hm-${q.rowId}`,
      `m:hm-${a.rowId}`,
      `m:hm-${harness.rowId}`,
      `r:hm-${harness.rowId}`,
      `m:hm-${reply.rowId}`,
      `r:hm-${reply.rowId}`,
      `m:hm-${next.rowId}`,
    ]);
  });
});

describe('two compression children of one parent (the gateway race)', () => {
  it('continues into the one Hermes resumes: still open before ended, then the one written to last', () => {
    const rows = (sessionId: string, t: number): HermesMessage[] => [row({ sessionId, timestamp: t })];
    const plan = (c1: Partial<HermesSession>, c2: Partial<HermesSession>, t1: number, t2: number) =>
      buildImportPlan({
        path: 'x',
        schema: { version: 21, sessionColumns: [], messageColumns: [], hasRowFlags: true },
        sessions: [
          session({ id: 'p', endReason: 'compression', startedAt: 1 }),
          session({ id: 'c1', parentSessionId: 'p', startedAt: 2, ...c1 }),
          session({ id: 'c2', parentSessionId: 'p', startedAt: 3, ...c2 }),
        ],
        messages: new Map([['c1', rows('c1', t1)], ['c2', rows('c2', t2)]]),
        messageCount: 2,
      }).sessions.map((s) => [s.session.id, s.link]);
    expect(plan({}, {}, 10, 5)).toEqual([['p', null], ['c1', 'compression'], ['c2', null]]);
    expect(plan({}, { endedAt: 20, endReason: 'user_exit' }, 5, 10)).toEqual([['p', null], ['c1', 'compression'], ['c2', null]]);
    expect(plan({ endedAt: 20, endReason: 'compression' }, {}, 5, 10)).toEqual([['p', null], ['c1', 'compression'], ['c2', null]]);
  });

  it('counts a newer activity heartbeat (last_activity_at, schema 24) as activity, as Hermes 26 does, in the import and in --verify', () => {
    const snapshot = (heartbeat: number | null): HermesSnapshot => ({
      path: 'x',
      schema: { version: 26, sessionColumns: [], messageColumns: [], hasRowFlags: true },
      sessions: [
        session({ id: 'p', endReason: 'compression', startedAt: 1 }),
        session({ id: 'c1', parentSessionId: 'p', startedAt: 2, extra: { last_activity_at: null } }),
        session({ id: 'c2', parentSessionId: 'p', startedAt: 3, extra: { last_activity_at: heartbeat } }),
      ],
      messages: new Map([['c1', [row({ sessionId: 'c1', timestamp: 10 })]], ['c2', [row({ sessionId: 'c2', timestamp: 5 })]]]),
      messageCount: 2,
    });
    const continued = (heartbeat: number | null) => buildImportPlan(snapshot(heartbeat)).sessions.find((s) => s.link === 'compression')?.session.id;
    const resumed = (heartbeat: number | null) => hermesViews(createHermesReader(snapshot(heartbeat)), 'p').resumeTarget;
    expect([continued(null), resumed(null)]).toEqual(['c1', 'c1']);
    expect([continued(8), resumed(8)]).toEqual(['c1', 'c1']);
    expect([continued(30), resumed(30)]).toEqual(['c2', 'c2']);
  });
});


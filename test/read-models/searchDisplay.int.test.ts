import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySearchRecords, indexedText, searchModel } from '@session-ledger/read-models';
import { displayView, foldConversation } from '@session-ledger/projections';
import { history, only } from '../projections/given.js';

const ROLES = ['user', 'assistant', 'tool', 'system'] as const;
const SOURCES = [undefined, 'cli', 'hermes'] as const;

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('src/core/ledger.ts', 'tool\u0002out\u0003put', '東京タワーに行く', 'readAllPages()', 'a\u0000b\u001bc', '😀 emoji 😀'),
);

const op = fc.oneof(
  fc.record({ k: fc.constant('root' as const), source: fc.nat(2) }),
  fc.record({ k: fc.constant('msg' as const), seg: fc.nat(), id: fc.nat(5), text, role: fc.nat(3), tool: fc.boolean() }),
  fc.record({ k: fc.constant('rewrite' as const), seg: fc.nat(), id: fc.nat(5), text }),
  fc.record({ k: fc.constant('rewind' as const), seg: fc.nat(), ids: fc.array(fc.nat(5), { minLength: 1, maxLength: 3 }) }),
  fc.record({ k: fc.constant('compact' as const), seg: fc.nat(), id: fc.nat(5) }),
  fc.record({ k: fc.constant('compress' as const), conv: fc.nat() }),
  fc.record({ k: fc.constant('delegate' as const), seg: fc.nat() }),
  fc.record({ k: fc.constant('end' as const), seg: fc.nat() }),
);

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Plays the ops as a writer would order them ($all interleaves conversations); returns each conversation's chain. */
const play = (ops: Op[]) => {
  const given = history().start('c0');
  const chains: string[][] = [['c0']];
  const segments: string[] = ['c0'];
  let next = 1;
  let summaries = 0;
  const pick = (n: number) => segments[n % segments.length]!;
  for (const o of ops) {
    if (o.k === 'root') {
      const id = `c${next++}`;
      const source = SOURCES[o.source];
      given.start(id, source === undefined ? {} : { source });
      chains.push([id]);
      segments.push(id);
    } else if (o.k === 'msg') {
      const data = { messageId: `m${o.id}`, role: ROLES[o.role]!, content: o.text, timestamp: given.at() };
      const tool = o.tool ? { toolName: 'read_file', toolCalls: [{ id: 'call', function: { name: 'read', arguments: `{"path":"${o.text}"}` } }] } : {};
      given.event(pick(o.seg), { type: 'message.appended', data: { ...data, ...tool } });
    } else if (o.k === 'rewrite') given.rewrite(pick(o.seg), `m${o.id}`, o.text);
    else if (o.k === 'rewind') given.rewind(pick(o.seg), o.ids.map((id) => `m${id}`));
    else if (o.k === 'compact') given.compactThrough(pick(o.seg), `m${o.id}`, `sum${summaries++}`);
    else if (o.k === 'compress') {
      const chain = chains[o.conv % chains.length]!;
      const child = `c${next++}`;
      given.compress(chain[chain.length - 1]!, child, chain[0]!);
      chain.push(child);
      segments.push(child);
    } else if (o.k === 'delegate') {
      const child = `c${next++}`;
      given.delegate(pick(o.seg), child);
      chains.push([child]);
      segments.push(child);
    } else given.end(pick(o.seg));
  }
  return { records: given.records, chains };
};

const key = (root: string, id: string, body: string, tools: string) => [root, id, body, tools].join('\u0000');

const indexed = (db: Database.Database): string[] =>
  db
    .prepare<[], { root: string; message_id: string; body: string; tools: string }>('SELECT m.root, m.message_id, t.body, t.tools FROM search_messages m JOIN search_text t ON t.rowid = m.id')
    .all()
    .map((row) => key(row.root, row.message_id, row.body, row.tools))
    .sort();

/** What every conversation's display view indexes: (root, message id, body, tools), sorted. */
const displayed = (records: ReturnType<typeof play>['records'], chains: string[][]): string[] =>
  chains
    .filter((chain) => chain.length > 0)
    .flatMap((chain) => displayView(foldConversation(only(records, ...chain))).messages.map((message) => ({ root: chain[0]!, message })))
    .map(({ root, message }) => {
      const { body, tools } = indexedText(message);
      return key(root, message.id, body, tools);
    })
    .sort();

describe('the search model agrees with the display view', () => {
  it('for random histories, the (conversation, message, text) indexed is what displayView shows for each conversation, also after a redelivery', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.nat(), (ops, replay) => {
        const { records, chains } = play(ops);
        const expected = chains
          .flatMap((chain) => displayView(foldConversation(only(records, ...chain))).messages.map((message) => ({ root: chain[0]!, message })))
          .map(({ root, message }) => {
            const { body, tools } = indexedText(message);
            return key(root, message.id, body, tools);
          })
          .sort();
        const db = new Database(':memory:');
        searchModel.create(db);
        applySearchRecords(db, records);
        expect(indexed(db)).toEqual(expected);
        applySearchRecords(db, records.slice(0, replay % (records.length + 1)));
        expect(indexed(db)).toEqual(expected);
        db.close();
      }),
      { numRuns: 300, seed: 1515 },
    );
  });

  it("for random histories, after a conversation's tip is erased (sessions delete --lineage tip), what is indexed is the display view of what is left", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.nat(), (ops, victim) => {
        const { records, chains } = play(ops);
        const db = new Database(':memory:');
        searchModel.create(db);
        applySearchRecords(db, records);
        const chain = chains[victim % chains.length]!;
        const tip = chain.pop()!;
        searchModel.erase(db, `session-${tip}`);
        expect(indexed(db)).toEqual(displayed(records.filter((record) => record.sessionId !== tip), chains));
        db.close();
      }),
      { numRuns: 300, seed: 1516 },
    );
  });
});

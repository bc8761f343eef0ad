import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { applySearchRecords, runSearch, searchModel } from '@session-ledger/read-models';
import { history } from '../projections/given.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const UNUSUAL = 'qxvbzq-Ωmega-7731-unforgettable 龘靐齉爩';
const REWRITTEN = 'jjwkpf-rewritten-0042-zanzibar 麤鱻灪';
const ORIGINAL = 'ykqwpr-original-5150-timbuktu';

/** Every byte SQLite keeps for the file: the database and its WAL. */
const bytesOf = (path: string): string => {
  let text = readFileSync(path).toString('latin1');
  try {
    text += readFileSync(`${path}-wal`).toString('latin1');
  } catch {
    // no WAL after a TRUNCATE checkpoint
  }
  return text;
};

/**
 * The UTF-8 bytes of each piece, as they would sit in the file: the text (the index's content), runs of
 * 8 characters, and each rare CJK character alone (the trigram index's terms hold them; without its
 * `secure-delete` option a deleted row's terms stay in the index's pages).
 */
const pieces = (text: string) =>
  [text, ...[0, 8, 16].map((at) => text.slice(at, at + 8)), ...[...text].filter((char) => char > '\u3000')].map((piece) => Buffer.from(piece, 'utf8').toString('latin1'));

const indexed = () => {
  const dir = mkdtempSync(join(tmpdir(), 'search-erase-'));
  dirs.push(dir);
  const path = join(dir, 'models.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  searchModel.create(db);
  const given = history().start('keep').message('keep', 'k1', 'an ordinary message about teapots');
  given.start('gone').message('gone', 'g1', `${UNUSUAL} first`).message('gone', 'g2', ORIGINAL);
  for (let index = 0; index < 200; index += 1) given.message('keep', `k${index + 2}`, `filler ${index} text to grow the index over several pages`);
  given.rewrite('gone', 'g2', REWRITTEN);
  db.transaction(() => applySearchRecords(db, given.records))();
  return { db, path };
};

describe('deleted means gone from the search model', () => {
  it('before the erase, the text is in the file (what the next test relies on)', () => {
    const { db, path } = indexed();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = bytesOf(path);
    db.close();

    for (const piece of [...pieces(UNUSUAL), ...pieces(REWRITTEN)]) expect(bytes.includes(piece)).toBe(true);
  });

  it('after erase and a checkpoint, no piece of the erased text is in the file, and the rest is still found', () => {
    const { db, path } = indexed();

    db.transaction(() => searchModel.erase(db, 'session-gone'))();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = bytesOf(path);

    for (const piece of [...pieces(UNUSUAL), ...pieces(REWRITTEN), ...pieces(ORIGINAL)]) expect(bytes.includes(piece)).toBe(false);
    expect(runSearch(db, { q: 'teapots' }).hits.map((hit) => hit.messageId)).toEqual(['k1']);
    expect(runSearch(db, { q: 'unforgettable' }).hits).toEqual([]);
    db.close();
  });
});

describe('erasing the segment that rewrote an older message', () => {
  it('takes the rewritten text with it; the message, appended in a segment that stays, is found by its text before the rewrite, as the display view shows it; the tip goes back to its parent', () => {
    const db = new Database(':memory:');
    searchModel.create(db);
    const given = history().start('root').message('root', 'm1', 'original words here').compress('root', 'tip', 'root').rewrite('tip', 'm1', 'secret rewritten words');
    applySearchRecords(db, given.records);
    expect(runSearch(db, { q: 'secret' }).hits.map((hit) => [hit.rootId, hit.tipId, hit.messageId])).toEqual([['root', 'tip', 'm1']]);

    searchModel.erase(db, 'session-tip');

    expect(runSearch(db, { q: 'secret' }).hits).toEqual([]);
    expect(runSearch(db, { q: 'words' }).hits.map((hit) => [hit.rootId, hit.tipId, hit.messageId])).toEqual([['root', 'root', 'm1']]);
    applySearchRecords(db, given.message('root', 'm2', 'later words').records.slice(-1));
    expect(runSearch(db, { q: 'later' }).hits.map((hit) => [hit.rootId, hit.tipId])).toEqual([['root', 'root']]);
    expect(JSON.stringify(db.prepare('SELECT * FROM search_changes').all())).not.toContain('secret');
    db.close();
  });
});

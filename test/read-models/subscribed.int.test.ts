import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, type EventStore } from '@session-ledger/core';
import { readModelsOf, withSubscribedReadModels } from '@session-ledger/read-models';
import { deleteSessions } from '@session-ledger/retention';
import { appendMessage, compressSession, listConversations, startSession } from '@session-ledger/sessions';
import { openEsdbTestStore } from '../esdb-server/index.js';
import { allRows, scratchDir } from './support.js';

const opened: EventStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** Stores that cannot keep read models inline: the catalog lives in a local SQLite file fed from $all. */
const STORES: Array<[string, () => EventStore]> = [
  ['memory', () => createMemoryStore()],
  ['eventstoredb', () => openEsdbTestStore()],
];

describe('the local read-model file', () => {
  it('is created by the first read, not by writes or deletions', async () => {
    const file = join(scratchDir(), 'read-models', 'x.sqlite');
    const store = withSubscribedReadModels(createMemoryStore(), file);
    opened.push(store);
    const context = { ledger: createLedger(store) };
    await startSession(context, { id: 'a' });
    await store.tombstoneStream('session-a');
    await startSession(context, { id: 'b' });

    expect(existsSync(file)).toBe(false);
    expect(allRows(await readModelsOf(store).ready('catalog'), new Date()).map((row) => row.rootId)).toEqual(['b']);
    expect(existsSync(file)).toBe(true);
  });
});

describe.each(STORES)('the catalog fed from $all into a local file (%s)', (_name, open) => {
  it('lists what was written, follows later writes, and loses a deleted conversation (deletions through the wrapped store)', async () => {
    const file = join(scratchDir(), 'read-models.sqlite');
    const store = withSubscribedReadModels(open(), file);
    opened.push(store);
    const context = { ledger: createLedger(store), now: () => new Date('2026-03-01T10:00:00Z') };
    await startSession(context, { id: 'keep', title: 'kept', source: 'cli' });
    await startSession(context, { id: 'gone', title: 'secret' });
    await compressSession(context, 'gone', { summary: 'S', childId: 'gone2' });
    const now = new Date('2026-03-01T12:00:00Z');
    const models = readModelsOf(store);
    expect(allRows(await models.ready('catalog'), now).map((row) => row.rootId).sort()).toEqual(['gone', 'keep']);

    await appendMessage(context, 'keep', { role: 'user', content: 'later' });
    await deleteSessions(context.ledger, ['gone'], { now });

    const rows = allRows(await models.ready('catalog'), now);
    expect(rows.map((row) => [row.rootId, row.messages])).toEqual([['keep', 1]]);
    expect(rows.map(({ source: _s, model: _m, firstActivity: _f, ...row }) => row)).toEqual(await listConversations(store, { now }));
    expect(await models.status()).toEqual([expect.objectContaining({ name: 'catalog', status: 'ok' })]);
  });
});

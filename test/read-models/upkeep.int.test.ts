import { describe, expect, it } from 'vitest';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { sessionStream } from '@session-ledger/events';
import { DEFAULT_READ_MODELS, catalogPage, catalogReadModel, inlineReadModels, openSearch } from '@session-ledger/read-models';
import { defaultModelsLedger } from './support.js';

describe('the default read models on the embedded store (deferred upkeep: catalog and search)', () => {
  it('Given appends after the last search, When searching, Then the new text is found (read your writes) and appends did not move the model', async () => {
    const { store, readModels, writer } = defaultModelsLedger();
    await startSession(writer, { id: 'sess-1', source: 'cli' });
    await appendMessage(writer, 'sess-1', { role: 'user', content: 'first words about marmalade' });
    expect((await openSearch(store)).search({ q: 'marmalade' }).hits.map((hit) => hit.rootId)).toEqual(['sess-1']);
    const before = (await readModels.status()).find((row) => row.name === 'search')!.position;
    const catalogBefore = (await readModels.status()).find((row) => row.name === 'catalog')!.position;
    await appendMessage(writer, 'sess-1', { role: 'assistant', content: 'then quinces arrived' });
    // The catalog is deferred too: the append did no read-model work at all, and the next list has it.
    expect((await readModels.status()).find((row) => row.name === 'catalog')!.position).toBe(catalogBefore);
    expect(catalogPage(await readModels.ready('catalog'), { now: writer.now() }).sessions).toEqual([expect.objectContaining({ rootId: 'sess-1', messages: 2 })]);
    // The append left the search model where it was (no FTS work in the append's transaction) ...
    expect((await readModels.status()).find((row) => row.name === 'search')!.position).toBe(before);
    // ... and the next search folds the append in before it answers.
    expect((await openSearch(store)).search({ q: 'quinces' }).hits.map((hit) => hit.messageId)).toHaveLength(1);
    expect((await readModels.status()).find((row) => row.name === 'search')!.position).toBeGreaterThan(before);
  });

  it('Given only deferred models, When the inline runner is made, Then its hook takes no appends (the store then builds no recorded event per append); an inline model gets them', () => {
    expect(inlineReadModels(DEFAULT_READ_MODELS).hook.appended).toBeUndefined();
    expect(inlineReadModels([{ ...catalogReadModel, upkeep: 'inline' }]).hook.appended).toBeTypeOf('function');
    expect(inlineReadModels([{ ...catalogReadModel, upkeep: 'inline' }], { appends: 'deferred' }).hook.appended).toBeUndefined();
  });

  it('Given a searched session, When it is tombstoned, Then search no longer finds it, before any catch-up', async () => {
    const { store, writer } = defaultModelsLedger();
    await startSession(writer, { id: 'gone', source: 'cli' });
    await appendMessage(writer, 'gone', { role: 'user', content: 'a secret about persimmons' });
    expect((await openSearch(store)).search({ q: 'persimmons' }).hits).toHaveLength(1);
    await store.tombstoneStream(sessionStream('gone'));
    expect((await openSearch(store)).search({ q: 'persimmons' }).hits).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSearch } from '@session-ledger/read-models';
import { defaultModelsLedger } from './support.js';

/** How many turns of the event loop pass before `promise` settles (0: it was answered on this thread, in microtasks). */
const loopTurnsUntil = async <T>(promise: Promise<T>): Promise<{ value: T; turns: number }> => {
  let turns = 0;
  let settled = false;
  const spin = () => {
    if (settled) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const value = await promise.finally(() => (settled = true));
  return { value, turns };
};

describe("a server's search, answered on a worker thread (searchOffThread)", () => {
  it('Given 60 messages with one word, When searched off the thread, Then the event loop keeps turning while the search runs, and the hits are those of the same search on this thread', async () => {
    const { store, writer } = defaultModelsLedger();
    for (const id of ['orchard', 'market', 'kitchen']) {
      await startSession(writer, { id, source: 'cli' });
      for (let n = 0; n < 20; n += 1) await appendMessage(writer, id, { role: n % 2 ? 'assistant' : 'user', content: `apricot number ${n} from the ${id}` });
    }
    const search = await openSearch(store);
    const here = search.search({ q: 'apricot', limit: 50 });
    const { value, turns } = await loopTurnsUntil(search.searchOffThread({ q: 'apricot', limit: 50 }));
    expect(turns).toBeGreaterThan(0);
    expect(value).toEqual(here);
    expect(value.hits).toHaveLength(50);
    await expect(search.searchOffThread({ q: 'apricot', role: 'assistant', limit: 100 })).resolves.toEqual(search.search({ q: 'apricot', role: 'assistant', limit: 100 }));
  });

  it("Given a search answered off the thread, When a message is appended and searched again, Then the thread's own connection finds it (read your writes)", async () => {
    const { store, writer } = defaultModelsLedger();
    await startSession(writer, { id: 'jam', source: 'cli' });
    await appendMessage(writer, 'jam', { role: 'user', content: 'plum jam' });
    expect((await (await openSearch(store)).searchOffThread({ q: 'quince' })).hits).toEqual([]);
    await appendMessage(writer, 'jam', { role: 'assistant', content: 'quince jelly' });
    expect((await (await openSearch(store)).searchOffThread({ q: 'quince' })).hits.map((hit) => hit.rootId)).toEqual(['jam']);
  });

  it('Given bad input, When searched off the thread, Then it is refused as invalid_input, as on this thread', async () => {
    const { store, writer } = defaultModelsLedger();
    await startSession(writer, { id: 'jam', source: 'cli' });
    const search = await openSearch(store);
    await expect(search.searchOffThread({ q: 'plum', limit: 0 })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(search.searchOffThread({ q: '' })).rejects.toMatchObject({ type: 'invalid_input' });
  });

  // Outside test, session 35 (helper-96 F1): "aaaa" over a run of 100,000 a's took 90 s, every other search waiting behind it.
  it('Given a message with a long run of one character, When a phrase of it is searched, Then the search is stopped at its deadline (search_timeout) and the searches queued behind it are answered', async () => {
    const { store, writer } = defaultModelsLedger();
    await startSession(writer, { id: 'dump', source: 'cli' });
    await appendMessage(writer, 'dump', { role: 'tool', content: 'a'.repeat(40_000) });
    await appendMessage(writer, 'dump', { role: 'user', content: 'apricot jam' });
    const search = await openSearch(store);
    const started = Date.now();
    const runaway = search.searchOffThread({ q: 'aaaa', limit: 1 }, 300).catch((error: unknown) => error);
    const behind = search.searchOffThread({ q: 'apricot' }, 5_000);
    expect(await runaway).toMatchObject({ type: 'search_timeout', details: { deadlineMs: 300 } });
    expect((await behind).hits.map((hit) => hit.rootId)).toEqual(['dump']);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect((await search.searchOffThread({ q: 'jam' })).hits).toHaveLength(1);
  });
});

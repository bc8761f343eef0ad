import { describe, expect, it } from 'vitest';
import { foldLineage, descendantConversations } from '@session-ledger/projections';
import { appendMessage, compressSession, listConversations, loadConversation, readConversationState, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

describe.each(STORES)('delegated and branched children (%s)', (_name, open) => {
  it('a delegated child is linked in the parent tip first, is its own conversation, and is reachable through lineage', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 'root' });
    await compressSession(context, 'root', { summary: 'S', childId: 'tip' });

    const child = await startSession(context, { id: 'sub', parentId: 'root', link: 'delegation' });
    await appendMessage(context, 'sub', { role: 'user', content: 'do the subtask' });

    expect(child).toMatchObject({ sessionId: 'sub', rootId: 'sub', parentId: 'tip', created: true });
    const parent = await loadConversation(store, 'root');
    expect(parent.messages).toHaveLength(0);
    expect(parent.segments[1]!.children).toEqual([expect.objectContaining({ childId: 'sub', link: 'delegation' })]);
    const rows = await listConversations(store);
    expect(rows.map((row) => [row.rootId, row.parentId, row.link]).sort()).toEqual([
      ['root', null, null],
      ['sub', 'tip', 'delegation'],
    ]);
    const { records } = await readConversationState(store, 'root');
    const childRecords = (await readConversationState(store, 'sub')).records;
    expect(descendantConversations(foldLineage([...records, ...childRecords]), 'root')).toEqual(['sub']);
  });

  it('a retried child start with the same id neither links twice nor fails', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 'p' });

    await startSession(context, { id: 'b', parentId: 'p', link: 'branch' });
    const retry = await startSession(context, { id: 'b', parentId: 'p', link: 'branch' });

    expect(retry.created).toBe(false);
    const raw = await loadConversation(store, 'p', { view: 'raw' });
    expect(raw.events.filter((event) => event.type === 'session.child_linked')).toHaveLength(1);
  });

  it('compression is not a link a caller may start by hand', async () => {
    const { context } = writerOn(open());
    await startSession(context, { id: 'p' });

    await expect(startSession(context, { id: 'c', parentId: 'p', link: 'compression' as never })).rejects.toMatchObject({ type: 'invalid_input' });
  });
});

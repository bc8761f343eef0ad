import { createLedger } from '@session-ledger/core';
import { loadConversation, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { expect } from 'vitest';

/** One append's answer as a client sees it: the status, and the message id a 201 names. */
export interface AppendAnswer {
  status: number;
  messageId?: string;
}

/**
 * 24 clients x 20 appends to session `busy` in the ledger `file`, none giving a message id or an
 * expected revision, each through `append(client, content)`: no append is refused, and every
 * acknowledged message is stored, once, and nothing else.
 */
export const expectAckedStored = async (file: string, append: (client: number, content: string) => Promise<AppendAnswer>): Promise<void> => {
  const store = openSqliteStore(file);
  try {
    await startSession({ ledger: createLedger(store) }, { id: 'busy' });
    const acked: string[] = [];
    const refused: number[] = [];
    await Promise.all(
      Array.from({ length: 24 }, async (_, client) => {
        for (let index = 0; index < 20; index += 1) {
          const answer = await append(client, `client ${client} #${index}`);
          if (answer.status === 201) acked.push(answer.messageId!);
          else refused.push(answer.status);
        }
      }),
    );
    const stored = (await loadConversation(store, 'busy')).messages.map((message) => message.id);
    expect(refused).toEqual([]);
    expect(acked).toHaveLength(480);
    expect(new Set(acked).size).toBe(480);
    expect([...stored].sort()).toEqual([...acked].sort());
  } finally {
    await store.close();
  }
};

import type { MessageInput } from '@session-ledger/sessions';

/** The message every session benchmark writes: message `n` of a conversation, about as long as a person types. */
export const benchMessage = (n: number): MessageInput => ({
  id: `m-${n}`,
  role: n % 2 === 0 ? 'user' : 'assistant',
  content: `message ${n}: a few words of conversation, about the length a person types.`,
  timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(),
});

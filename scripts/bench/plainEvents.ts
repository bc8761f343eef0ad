import { newId } from '@session-ledger/core';
import { benchMessage } from './messages.js';

/** The bench message as the plain baselines insert it. */
export const plainEvents = (count: number) => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'message.appended', data: benchMessage(n) }));

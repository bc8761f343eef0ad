import type { Ledger } from '@session-ledger/core';
import type { SessionStarted } from '@session-ledger/events';
import { eachAncestor } from './ancestors.js';

/** Every turn id the segment's compression ancestors began: a turn id is used once per conversation. */
export const lineageTurnIds = async (ledger: Ledger, started: SessionStarted): Promise<Set<string>> => {
  const turnIds = new Set<string>();
  await eachAncestor(ledger, started, (_parentId, state) => {
    for (const turnId of state.turnIds) turnIds.add(turnId);
    return true;
  });
  return turnIds;
};

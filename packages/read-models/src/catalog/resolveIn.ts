import { readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { readModelsOf } from '../machinery/registry.js';
import { resolveSession } from './resolve.js';

/**
 * resolveSession on the store's catalog, where a deleted segment's own id still names it: the catalog
 * forgets deleted segments, so `job1945`, deleted, resolved as a prefix of `job1945-retry` and
 * `sessions delete job1945 --yes` run twice deleted that other conversation; GET /sessions/job1945
 * served it, and the web page offered to delete it (outside test, session 27). The id of a
 * tombstoned session stream is returned as is, and its reader answers that it was deleted.
 */
export const resolveSessionIn = async (store: EventStore, selector: string): Promise<string> => {
  const catalog = await readModelsOf(store).ready('catalog');
  if (selector.trim() !== '' && !catalog.prepare('SELECT 1 FROM catalog_segments WHERE id = ?').get(selector)) {
    const read = await readStreamState(store, sessionStream(selector), { maxCount: 1 });
    if (read.state === 'tombstoned') return selector;
  }
  return resolveSession(catalog, selector);
};

import { openSearch, parseSince } from '@session-ledger/read-models';
import { searchQuery, searchResult } from '../contract/search.js';
import { route, type Route } from '../types.js';

/** Full-text search over the display history of every conversation. */
export const searchRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/search',
    tag: 'sessions',
    summary: 'Search what was said, best first',
    description: 'Compacted and rewritten (current text) messages, tool calls and tool results; rewound and deleted ones are not found. A query without a word of 3 characters is a 400.',
    query: searchQuery,
    responses: {
      200: { description: 'the hits, best first', schema: searchResult },
      400: { description: 'bad query parameters' },
      503: { description: 'search_timeout: the search ran past its deadline (10 s) and was stopped (a phrase repeated many times in a row in some message)' },
    },
    handler: async ({ store, query, now }) => {
      const since = query.since === undefined ? undefined : parseSince('since', query.since, now()).toISOString();
      const handle = await openSearch(store);
      return { body: await handle.searchOffThread({ q: query.q, limit: query.limit, role: query.role, source: query.source, since }) };
    },
  }),
];

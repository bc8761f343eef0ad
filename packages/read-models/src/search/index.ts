export { searchModel, applySearchRecords } from './searchModel.js';
export { runSearch, DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY, codePoints, type SearchOptions, type SearchHit, type SearchResult } from './runSearch.js';
export { openSearch, type SearchHandle } from './openSearch.js';
export { parseQuery, MIN_TERM } from './query.js';
export { marksOf } from './snippet.js';
export { indexedText, stripControls, type IndexedText } from './text.js';
export { TOKENIZER } from './schema.js';

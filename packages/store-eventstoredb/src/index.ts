export { openEventStoreDbStore } from './store.js';
export { EVENTSTOREDB_SCHEMES, toConnectionString } from './url.js';
export { CHECKPOINT_PREFIX, isHidden } from './hidden.js';
export { mapClientError } from './errors.js';

/** The stores and the writer context every sessions scenario uses (shared with the retention tests). */
export { STORES, writerOn } from '../support/stores.js';

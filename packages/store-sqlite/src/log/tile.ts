/**
 * Subtrees of 2^STORED_FROM leaves and up are stored (log_nodes); smaller ones are computed from
 * their at most 16 leaves (one range read) when a root or a proof needs them, as Trillian's tiles
 * do. An append then writes its leaf row only, and one node row every 16th append (amortised 1/8):
 * the log costs an append one row, not two. Its own module: verify's workers read it without the core.
 */
export const STORED_FROM = 4;
export const TILE = 2 ** STORED_FROM;

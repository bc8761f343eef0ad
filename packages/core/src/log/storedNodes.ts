/** A subtree hash as a store keeps it (`log_nodes`): 2^level leaves from index * 2^level. */
export interface StoredNode {
  level: number;
  index: number;
  /** As stored: anything but 32 bytes in a Buffer is no hash, and never equals one. */
  hash: unknown;
}

/**
 * For each level from `minLevel` up, the indexes of the subtrees whose last leaf lies in [from, to):
 * those a pass over those leaves completes. A store reads its stored nodes with these ranges (one
 * indexed range per level: `EventLog.nodes`, the SQLite scan source).
 */
export const nodeSpans = (from: number, to: number, minLevel: number): Array<{ level: number; first: number; last: number }> => {
  const spans: Array<{ level: number; first: number; last: number }> = [];
  for (let level = minLevel; 2 ** level <= to; level += 1) {
    const width = 2 ** level;
    const first = Math.ceil((from + 1) / width) - 1;
    const last = Math.floor(to / width) - 1;
    if (last >= first) spans.push({ level, first, last });
  }
  return spans;
};

/** Where a stored node disagrees with the tree its leaves give: what verify reports (a `root` break). */
export const nodeMismatch = (level: number, index: number): string =>
  `the stored subtree hash at level ${level}, index ${index} (leaves ${index * 2 ** level}..${(index + 1) * 2 ** level - 1}) is not the hash of those leaves: proofs through it do not verify`;

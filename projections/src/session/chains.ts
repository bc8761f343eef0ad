/**
 * Resolves, for every id, the end of the chain `next` leads along (a root through parents, a tip
 * through children), in linear time: each id is walked once and memoized; a cycle ends the chain.
 */
export const chainEnds = (ids: Iterable<string>, next: (id: string) => string | null): Map<string, string> => {
  const ends = new Map<string, string>();
  for (const start of ids) {
    if (ends.has(start)) continue;
    const path: string[] = [];
    const onPath = new Set<string>();
    let current = start;
    let end: string | undefined;
    for (;;) {
      const known = ends.get(current);
      if (known !== undefined) {
        end = known;
        break;
      }
      path.push(current);
      onPath.add(current);
      const following = next(current);
      if (following === null || onPath.has(following)) {
        end = current;
        break;
      }
      current = following;
    }
    for (const id of path) ends.set(id, end);
  }
  return ends;
};

/**
 * Entries of a Hermes memory file (MEMORY.md, USER.md): blocks separated by a line holding only `§`.
 * Entries are trimmed, empty ones dropped, and a repeated entry kept once (its first occurrence), as
 * Hermes' memory tool loads them. Windows line endings are accepted.
 */
export const parseEntries = (text: string): string[] => {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const blocks: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '§') blocks.push([]);
    else blocks[blocks.length - 1]!.push(line);
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const block of blocks) {
    const entry = block.join('\n').trim();
    if (entry.length === 0 || seen.has(entry)) continue;
    seen.add(entry);
    out.push(entry);
  }
  return out;
};

import { pythonStrip } from '../pythonStrip.js';
import { ENTRY_DELIMITER } from '../budgets.js';

/**
 * Entries of a Hermes memory file (MEMORY.md, USER.md) as Hermes' memory tool reads them
 * (`_read_file`, `load_from_disk`): the text (newlines made `\n`, as Python's universal newlines
 * read it) split on `\n§\n` exactly, each part stripped as Python's `str.strip()` strips, empty parts
 * dropped, a repeated entry kept once (its first occurrence). A line holding `§` with spaces around it,
 * or a second `§` line right after a delimiter, is entry text there: taken as a separator, one Hermes
 * entry became two (outside test, session 24). A leading byte order mark is dropped, as Hermes reads
 * the file (`read_text(encoding="utf-8-sig")`, tools/memory_tool.py `_read_raw_checked` at e89532d;
 * an older Hermes kept it, glued to the first entry, which broke its matching and dedup).
 */
export const parseEntries = (text: string): string[] => {
  const raw = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of raw.split(ENTRY_DELIMITER)) {
    const entry = pythonStrip(part);
    if (entry.length === 0 || seen.has(entry)) continue;
    seen.add(entry);
    out.push(entry);
  }
  return out;
};

/** Whether two texts of a memory file hold the same entries as Hermes reads them (whitespace around entries, a final newline, a byte order mark, line endings aside). */
export const sameEntries = (a: string, b: string): boolean => {
  const left = parseEntries(a);
  const right = parseEntries(b);
  return left.length === right.length && left.every((entry, index) => entry === right[index]);
};

import type { MemoryTarget } from '@session-ledger/events';
import type { MemoryEntry } from '@session-ledger/projections';
import type { MemoryOperation } from '../operations.js';
import { parseEntries } from './hermesEntries.js';

/**
 * The edits made by hand (or by Hermes' memory tool) to one target's file of a mirrored directory,
 * as memory operations on the profile as it is now. `written`: the entries the mirror last wrote (its
 * mapping); `text`: the file as it is (null: absent, which loses nothing: the mirror writes it again);
 * `current`: the profile's entries now (other writers may have gone on since the mirror parked).
 * - An entry the mirror wrote that the file no longer holds was taken out: a remove by its id, when
 *   the profile still holds it.
 * - An entry the file holds that the mirror never wrote was put in: an add, unless the profile holds it.
 * - Both at one place (the same index in the file as in what the mirror wrote): a correction, a
 *   replace by id that keeps the entry's place and id (an add if the profile no longer holds it).
 * Pure: the caller commits the operations as one batch through the memory ledger, so budgets and
 * duplicates are checked as for any write. Until session 35 the only way to keep hand edits was the
 * Hermes import, which only adds: a correction became a second entry, an entry deleted by hand came
 * back, and the budget was not checked (outside test, session 34, helper-94 F1).
 */
export const handEditsOf = (target: MemoryTarget, written: readonly MemoryEntry[], text: string | null, current: readonly MemoryEntry[]): MemoryOperation[] => {
  if (text === null) return [];
  const mirrored = written.filter((entry) => entry.target === target);
  const inFile = parseEntries(text);
  const kept = new Set(inFile);
  const wrote = new Set(mirrored.map((entry) => entry.content));
  const now = (id: string) => current.find((entry) => entry.id === id && entry.target === target);
  const has = new Set(current.filter((entry) => entry.target === target).map((entry) => entry.content));
  const corrected = new Map<string, string>();
  mirrored.forEach((entry, index) => {
    const there = inFile[index];
    if (!kept.has(entry.content) && there !== undefined && !wrote.has(there)) corrected.set(entry.id, there);
  });
  const replacing = new Set(corrected.values());
  const out: MemoryOperation[] = [];
  for (const entry of mirrored) {
    const held = now(entry.id);
    if (kept.has(entry.content) || !held) continue;
    const content = corrected.get(entry.id);
    // Corrected already (an adopt run again after it committed, killed before its rebuild): nothing.
    if (content !== undefined && held.content === content) continue;
    if (content === undefined) out.push({ op: 'remove', target, entryId: entry.id });
    else if (!has.has(content)) out.push({ op: 'replace', target, entryId: entry.id, content });
    else out.push({ op: 'remove', target, entryId: entry.id });
  }
  for (const content of inFile) {
    if (wrote.has(content) || has.has(content)) continue;
    const replaced = replacing.has(content) && out.some((op) => op.op === 'replace' && op.content === content);
    if (!replaced) out.push({ op: 'add', target, content });
  }
  return out;
};

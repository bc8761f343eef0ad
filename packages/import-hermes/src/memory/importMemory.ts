import { deterministicId, isJsonObject, type JsonObject, type JsonValue, type Ledger, type RecordedEvent } from '@session-ledger/core';

const objectOf = (value: JsonValue | undefined): JsonObject | null => (isJsonObject(value) ? value : null);
import { decodeMemoryEvents, memoryStream } from '@session-ledger/events';
import { foldMemoryEntries } from '@session-ledger/projections';
import { checkProfile, CONTENT_PATTERN, DEFAULT_BUDGETS, usedChars, type Budgets } from '@session-ledger/memory';
import { MEMORY_TARGETS } from '@session-ledger/events';
import { readIds } from '../ledger/readIds.js';
import { memoryEvents, type PlannedMemoryEvent } from './memoryEvents.js';
import type { MemoryFileEntries } from './readMemoryDir.js';

/**
 * An entry the memory ledger would take (its content rule): Hermes splits a file on every line holding
 * only §, so it can read an entry ending in one ("list of symbols:\n§"), and once another entry
 * follows it in the mirror Hermes reads other entries than the ledger holds (outside test, session 34,
 * helper-94 F15: the import let it in, every other write refuses it).
 */
const ENTRY_TEXT = new RegExp(CONTENT_PATTERN);

/** A memory profile names a stream (the memory ledger's rule). */
export const checkMemoryProfile = checkProfile;

export interface MemoryImport {
  /** Entries in the files. */
  found: number;
  /** Entries this run wrote (or would write, in a dry run). */
  written: number;
  /** Entries imported before and taken out in the ledger since, in a file not written after: neither written nor present. */
  notAgain: number;
  skipped: Array<{ reason: string }>;
}

/**
 * Adds the entries of Hermes' memory files that the profile's memory stream does not hold
 * yet, at the end, conditional on the revision read. Held means in the profile now with the same
 * text in the same target (or imported before and taken out since, in a file not written after: `importedAgain`): a second copy would be a
 * duplicate the memory ledger refuses and Hermes reads as drift (outside test, session 26: the
 * import after a parked mirror added every entry the ledger had mirrored again). Entries are
 * never removed here.
 */
export const importMemory = async (ledger: Ledger, files: MemoryFileEntries[], profile: string, dryRun: boolean, budgets: Partial<Budgets> = {}): Promise<MemoryImport> => {
  const planned = memoryEvents(checkMemoryProfile(profile), files);
  const unreadable = files.flatMap((file) => (file.unreadable === undefined ? [] : [{ reason: file.unreadable }]));
  const stream = memoryStream(profile);
  const held = await readIds(ledger.store, stream);
  if (held.kind === 'deleted') return { found: planned.length, written: 0, notAgain: 0, skipped: [...unreadable, { reason: `${stream} was deleted in the ledger` }] };
  const events = held.kind === 'present' ? held.events : [];
  const have = new Set(events.map((event) => event.id));
  const entries = foldMemoryEntries(decodeMemoryEvents(events), { entries: [] }).entries;
  const texts = new Set(entries.map((entry) => `${entry.target}\u0000${entry.content}`));
  const notAgain: Array<{ reason: string }> = [];
  const unmirrorable: Array<{ reason: string }> = [];
  const fresh: PlannedMemoryEvent[] = [];
  for (const event of planned) {
    const { target, content } = event.data as { target: string; content: string };
    if (texts.has(`${target}\u0000${content}`)) continue;
    if (!ENTRY_TEXT.test(content)) {
      unmirrorable.push({ reason: `the ${target} entry ${JSON.stringify(content)} holds a line with only §, which the memory ledger refuses: mirrored, Hermes would read it as other entries` });
      continue;
    }
    if (!have.has(event.id)) {
      fresh.push(event);
      continue;
    }
    const again = importedAgain(events, event);
    if (typeof again === 'string') notAgain.push({ reason: again });
    else fresh.push(again);
  }
  // Budgets as the memory ledger counts them: a target the entries would leave over its budget, and
  // larger than the ledger holds it, takes none of them (the import passed the budget, 2341/2200, and
  // every later add was refused: outside test, session 34, helper-94 F1).
  const limits = { ...DEFAULT_BUDGETS, ...budgets };
  const overBudget: Array<{ reason: string }> = [];
  for (const target of MEMORY_TARGETS) {
    const adding = fresh.filter((event) => (event.data as { target: string }).target === target);
    if (adding.length === 0) continue;
    const after = [...entries, ...adding.map((event) => ({ id: event.id, target, content: (event.data as { content: string }).content }))];
    const used = usedChars(after, target);
    if (used <= limits[target] || used <= usedChars(entries, target)) continue;
    overBudget.push({ reason: `the ${adding.length} new ${target} entries would leave it at ${used}/${limits[target]} characters: none of them was imported (trim MEMORY.md or USER.md, or remove entries with session-ledger memory remove, then import again)` });
    for (const event of adding) fresh.splice(fresh.indexOf(event), 1);
  }
  if (!dryRun && fresh.length > 0) {
    await ledger.append(stream, fresh, { expectedRevision: held.kind === 'present' ? held.lastRevision : 'no_stream' });
  }
  return { found: planned.length, written: fresh.length, notAgain: notAgain.length, skipped: [...unreadable, ...notAgain, ...unmirrorable, ...overBudget] };
};

/**
 * An entry imported before that the ledger took out since (removed, or replaced by other text): the
 * file holds it again. A file written after that (the user, or Hermes, put it back: the "keep its
 * entries" way out of a parked mirror) brings it back as a new entry, under ids hashed from the event
 * that took it out, so a repeated import adds nothing; it was skipped and counted "already present",
 * and the rebuild that followed deleted it from the file (outside test, session 34, helper-94 F8). A
 * file not written since is an older copy: skipped, saying so.
 */
const importedAgain = (events: readonly RecordedEvent[], planned: PlannedMemoryEvent): PlannedMemoryEvent | string => {
  const { target, content, entryId } = planned.data as { target: string; content: string; entryId: string };
  const out = events.findLast((event) => {
    const data = objectOf(event.data);
    return (event.type === 'memory.entry_removed' || event.type === 'memory.entry_replaced') && data?.target === target && data.previousContent === content;
  });
  const modified = objectOf(objectOf(planned.metadata)?.hermes)?.modified;
  const entry = `the ${target} entry ${JSON.stringify(content)}`;
  if (out === undefined || typeof modified !== 'string' || modified <= out.created) {
    return `${entry} was imported before and taken out in the ledger since; the file was not written after that (an older copy?), so it is not imported again`;
  }
  const suffix = out.id.slice(0, 8);
  return { ...planned, id: deterministicId(planned.id, out.id), data: { ...planned.data, entryId: `${entryId}-${suffix}` } };
};

/**
 * Message ids to their index in `ConversationState.messages`. Filing every message by id is half of
 * a fold (a duplicate id must be recognized), and a JavaScript Map of 100k string keys costs several
 * times what an open-addressing table over one Int32Array does: no entry objects, no rehash into new
 * heap objects as it grows (the fold sizes it once from the number of events), so nothing for the
 * garbage collector. Keys are compared in full, so the hash only decides speed, never an answer.
 *
 * A class and not a plain object on purpose: immer drafts plain objects, and a draft of this one
 * would write into the base's typed array. Immer hands a class instance out as it is; a state is
 * advanced in a draft only after `copy()` (see advanceConversation).
 */
export class MessageIndex {
  /** Slot -> message index + 1; 0 is an empty slot. The length is a power of two. */
  private slots: Int32Array;
  /** Message index -> id (what a probe compares with). */
  private readonly ids: string[];

  constructor(expected = 0, ids: string[] = [], slots?: Int32Array) {
    this.ids = ids;
    this.slots = slots ?? new Int32Array(capacityFor(Math.max(expected, ids.length)));
    if (!slots) for (let index = 0; index < ids.length; index += 1) this.place(ids[index]!, index);
  }

  get size(): number {
    return this.ids.length;
  }

  get(id: string): number | undefined {
    const { slots } = this;
    const mask = slots.length - 1;
    for (let slot = hashOf(id) & mask; ; slot = (slot + 1) & mask) {
      const at = slots[slot]!;
      if (at === 0) return undefined;
      if (this.ids[at - 1] === id) return at - 1;
    }
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /**
   * Files `id` as the next message (index `size`), unless it is filed already: then nothing changes
   * and the earlier index is returned. One probe sequence for both the duplicate check and the insert.
   */
  add(id: string): number | undefined {
    if (2 * (this.ids.length + 1) > this.slots.length) this.grow();
    const { slots } = this;
    const mask = slots.length - 1;
    for (let slot = hashOf(id) & mask; ; slot = (slot + 1) & mask) {
      const at = slots[slot]!;
      if (at === 0) {
        slots[slot] = this.ids.push(id);
        return undefined;
      }
      if (this.ids[at - 1] === id) return at - 1;
    }
  }

  /** An independent index with the same entries (the base of a draft keeps its own). */
  copy(): MessageIndex {
    return new MessageIndex(0, this.ids.slice(), this.slots.slice());
  }

  private place(id: string, index: number): void {
    const { slots } = this;
    const mask = slots.length - 1;
    let slot = hashOf(id) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = index + 1;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let index = 0; index < this.ids.length; index += 1) this.place(this.ids[index]!, index);
  }
}

/** At most half full: linear probing stays short. */
const capacityFor = (entries: number): number => {
  let capacity = 16;
  while (capacity < 2 * entries) capacity *= 2;
  return capacity;
};

/**
 * Per process, as V8 seeds its own string hashes: ids crafted to collide (a hash flood that would make
 * every probe walk the whole table) cannot be prepared in advance. Answers never depend on it.
 */
const SEED = (Math.random() * 0x1_0000_0000) >>> 0;

/** FNV-1a over the UTF-16 code units, from a seeded basis. */
const hashOf = (id: string): number => {
  let hash = 0x811c9dc5 ^ SEED;
  for (let index = 0; index < id.length; index += 1) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  return hash;
};

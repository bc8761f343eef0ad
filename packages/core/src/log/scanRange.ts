import { deletionLeafHash, leafHashHex, nodeHashText } from './leaf.js';
import type { EdgeNode } from './merkle.js';
import type { DeletionRecord } from './port.js';
import { rehashScanned } from './rehashScanned.js';
import { scanLeafInput } from './scanLeafInput.js';

/**
 * One leaf as a range scan reads it: integers as numbers (a scan takes only safe integers, and
 * leaves anything else to the reference verify), the event's columns as stored.
 */
export interface ScanRow {
  index: number;
  position: number;
  stream: string;
  revision: number;
  /** The stored leaf hash as 64 lowercase hex digits ('' when it is not 32 bytes). */
  leafHash: string;
  /** A deletion leaf: its record as stored (null when gone). */
  isDeletion: boolean;
  deletion: DeletionRecord | null;
  event: { position: number; stream: string; revision: number; id: string; type: string; data: string; metadata: string; created: string } | null;
}

/**
 * A page of leaves, and how many stored events in the positions the page's event leaves span (from
 * the one after `after`, or from the page's first when `after` is null, through its last) no leaf of
 * the page holds: strays, which verify must report. null: the source cannot tell.
 */
export interface ScanPage {
  rows: ScanRow[];
  strays: number | null;
  /**
   * The stored subtree hashes (levels 1 and up) whose last leaf is one of the page's rows: at each
   * level, by index, as binary ('latin1') strings of 32 characters ('' for a cell that is no hash).
   * Each must be the hash the scan computes there; absent: nothing stored (or the source keeps none).
   */
  nodes?: StoredNodeTexts;
}

/** Stored subtree hashes by level, then index (ScanPage.nodes). */
export type StoredNodeTexts = Array<Map<number, string> | undefined>;

/**
 * Reads leaves from index `from`, at most `max`, in leaf order; `after` is the previous page's last
 * event-leaf position; `end` is where the range being scanned ends (no page reaches past it).
 */
export type ScanSource = (from: number, max: number, after: number | null, end: number) => ScanPage | Promise<ScanPage>;

/** Positions first..last (inclusive) whose every stored event a leaf holds. */
export interface PositionSpan {
  first: number;
  last: number;
}

/** A leaf whose event is gone (the deletion checks decide if a recorded deletion erased it). */
export interface ScanMissing {
  index: number;
  position: number;
  stream: string;
  revision: number;
}

/** A stream's first event in the range, whose prevHash links to the previous range's head of that stream. */
export interface ScanLink {
  stream: string;
  revision: number;
  prev: unknown;
}

/** A stream's last event in the range: the head the next range links to. */
export interface ScanHead {
  stream: string;
  revision: number;
  hash: string;
}

/**
 * What a scan of the leaves [from, to) found. A range is `clean` when every leaf in it passed every
 * check the reference verify makes at a leaf; what crosses its edges (chain links, position order,
 * the tree) is returned for `stitchScans` to check. An unclean range says why and nothing else:
 * the reference verify then reads the whole log again and names every break.
 */
export type RangeScan =
  | {
      clean: true;
      from: number;
      to: number;
      events: number;
      /** The compact range of the range's leaves (aligned subtrees), and the same at `cut` when from < cut < to. */
      edge: EdgeNode[];
      cutEdge: EdgeNode[] | null;
      firsts: ScanLink[];
      heads: ScanHead[];
      /** Positions of the range's first and last event (-1: none). */
      firstPosition: number;
      lastPosition: number;
      missing: ScanMissing[];
      deletions: DeletionRecord[];
      /** For each deletion (in order): its stream's highest event-leaf revision in the range before it (null: none). */
      deletionTops: Array<number | null>;
      /** Each stream's highest event-leaf revision in the range, erased events' leaves included. */
      tops: Array<[string, number]>;
      /** The positions the range's event leaves span (null: none), and whether they grow and the source saw no stray among them. */
      span: PositionSpan | null;
      strayFree: boolean;
      /** The position a deletion leaf opening the range holds (null: the range opens with an event leaf), and the range's last leaf's. */
      opening: number | null;
      lastLeafPosition: number;
    }
  | { clean: false; from: number; to: number; why: string };

const PAGE = 2000;

/**
 * compactRange (merkle.ts) local to a range: the leaves' hashes as hex (as compared), the nodes above
 * them as binary strings (nodeHashText); its edge is handed over as Buffers.
 */
const textRange = () => {
  const levels: number[] = [];
  const hashes: string[] = [];
  return {
    /** Pushes leaf `index`; false when a subtree it completes disagrees with the stored one in `stored`. */
    push(hash: string, index: number, stored: StoredNodeTexts | undefined): boolean {
      let level = 0;
      let top = hash;
      let agrees = true;
      while (levels.length > 0 && levels[levels.length - 1] === level) {
        levels.pop();
        top = nodeHashText(hashes.pop()!, top, level === 0 ? 'hex' : 'latin1');
        level += 1;
        const kept = stored?.[level]?.get((index + 1) / 2 ** level - 1);
        if (kept !== undefined && kept !== top) agrees = false;
      }
      levels.push(level);
      hashes.push(top);
      return agrees;
    },
    edge: (): EdgeNode[] => levels.map((level, at) => ({ level, hash: Buffer.from(hashes[at]!, level === 0 ? 'hex' : 'latin1') })),
  };
};

const safe = Number.isSafeInteger;

/** Scans the leaves [from, to); from must be a multiple of the range's power-of-two span. */
export const scanRange = async (source: ScanSource, from: number, to: number, cut: number | null = null): Promise<RangeScan> => {
  const unclean = (why: string): RangeScan => ({ clean: false, from, to, why });
  const range = textRange();
  let cutEdge: EdgeNode[] | null = null;
  const firsts: ScanLink[] = [];
  const heads = new Map<string, ScanHead>();
  const missing: ScanMissing[] = [];
  const deletions: DeletionRecord[] = [];
  const deletionTops: Array<number | null> = [];
  const tops = new Map<string, number>();
  let firstPosition = -1;
  let lastPosition = -1;
  /** Whether the last event leaf had the form before schema version 7 (benchmark row "audit verify of 1,000,000 events written before schema 7"). */
  let earlierForm = false;
  let events = 0;
  let next = from;
  // The positions of the event leaves read so far: growing, with no stray among them ('mixed': strays, or the source cannot tell).
  let strayFree = true;
  let after: number | null = null;
  let spanFirst: number | null = null;
  let opening: number | null = null;
  let lastLeafPosition = -1;
  while (next < to) {
    const { rows: page, strays, nodes } = await source(next, Math.min(PAGE, to - next), after, to);
    if (page.length === 0) return unclean(`leaves from ${next} are missing`);
    if (strays !== 0) strayFree = false;
    for (const row of page) {
      if (row.index !== next) return unclean(`leaf ${row.index} where ${next} was due`);
      const leafHash = row.leafHash;
      // Each leaf's hash is compared with one computed as lowercase hex before it counts: a string of other digits never is.
      if (typeof leafHash !== 'string' || leafHash.length !== 64) return unclean(`leaf ${row.index}'s hash`);
      if (cut === next && next > from) cutEdge = range.edge();
      next += 1;
      if (!range.push(leafHash, row.index, nodes)) return unclean(`a stored subtree hash completed by leaf ${row.index}`);
      if (!safe(row.position)) return unclean(`leaf ${row.index}'s place`);
      // Positions no hash covers (verifyLog.ts, checkLeafPosition): a deletion leaf repeats the leaf
      // before's, and event leaves' grow, erased ones' too (helper-95 F9).
      if (row.isDeletion) {
        if (row.index === from) opening = row.position;
        else if (row.position !== lastLeafPosition) return unclean(`deletion leaf ${row.index}'s position`);
      } else if (after !== null && row.position <= after) return unclean(`leaf ${row.index}'s position`);
      lastLeafPosition = row.position;
      if (row.isDeletion) {
        const record = row.deletion;
        if (!record || record.logSize !== row.index || deletionLeafHash({ index: row.index, ...record }).toString('hex') !== leafHash) return unclean(`deletion leaf ${row.index}`);
        deletions.push(record);
        deletionTops.push(tops.get(record.stream) ?? null);
        continue;
      }
      const { event } = row;
      if (!safe(row.position) || !safe(row.revision) || typeof row.stream !== 'string') return unclean(`leaf ${row.index}'s place`);
      if (row.revision > (tops.get(row.stream) ?? -1)) tops.set(row.stream, row.revision);
      if (after === null) spanFirst = row.position;
      after = row.position;
      if (!event) {
        missing.push({ index: row.index, position: row.position, stream: row.stream, revision: row.revision });
        continue;
      }
      if (event.position !== row.position || event.stream !== row.stream || event.revision !== row.revision || !safe(event.position) || event.position <= lastPosition) return unclean(`leaf ${row.index}'s event`);
      if (firstPosition < 0) firstPosition = event.position;
      lastPosition = event.position;
      events += 1;
      // As the reference: the predecessor's hash when it is the head, null at revision 0, else unchecked
      // (an earlier range may hold the predecessor: `stitchScans` checks the link).
      const head = heads.get(row.stream);
      const expected = head && head.revision === row.revision - 1 ? head.hash : row.revision === 0 ? null : undefined;
      const result = rehashScanned(event, expected);
      if (!result) return unclean(`leaf ${row.index}'s content`);
      if (expected === undefined && !head) firsts.push({ stream: row.stream, revision: row.revision, prev: result.prev });
      else if (expected !== undefined && result.prev !== expected) return unclean(`leaf ${row.index}'s prevHash`);
      heads.set(row.stream, { stream: row.stream, revision: row.revision, hash: result.hash });
      // With its position (leaves since schema version 7) or in the earlier form, the last leaf's form first (leaf.ts, eventLeafMatching).
      if (leafHashHex(scanLeafInput(row.index, earlierForm ? null : event.position, row.stream, row.revision, result.hash, event.created)) !== leafHash) {
        if (leafHashHex(scanLeafInput(row.index, earlierForm ? event.position : null, row.stream, row.revision, result.hash, event.created)) !== leafHash) return unclean(`leaf ${row.index}'s leaf hash`);
        earlierForm = !earlierForm;
      }
    }
  }
  return { clean: true, from, to, events, edge: range.edge(), cutEdge, firsts, heads: [...heads.values()], firstPosition, lastPosition, missing, deletions, deletionTops, tops: [...tops], span: after === null ? null : { first: spanFirst!, last: after }, strayFree, opening, lastLeafPosition };
};

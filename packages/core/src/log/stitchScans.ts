import { compactRange, type EdgeNode } from './merkle.js';
import type { DeletionRecord } from './port.js';
import type { PositionSpan, RangeScan, ScanMissing } from './scanRange.js';

/** The leaf pass of verify over the whole log, from clean range scans joined. */
export interface StitchedPass {
  events: number;
  /** The compact range of every leaf: its root is the log's. */
  edge: EdgeNode[];
  /** The root of the first `cut` leaves (a saved digest's size), when 0 < cut <= the leaves scanned. */
  cutRoot: Buffer | null;
  missing: ScanMissing[];
  deletions: DeletionRecord[];
  /** For each deletion record (by id): its stream's highest event-leaf revision below the record's leaf (verifyDeletions.ts, checkDeletionHeads). */
  headsBelow: Map<number, number | null>;
  /** Each stream's last revision among its event leaves whose events are stored. */
  lastOf: Map<string, number>;
  /**
   * The positions the ranges' event leaves span, in order, with no stray among them: a stored event at
   * any other position is a stray. null when a range could not tell.
   */
  spans: PositionSpan[] | null;
  /** The subtrees joining ranges completed (above a range's own): verify checks the stored ones against these. */
  nodes: Array<{ level: number; index: number; hash: Buffer }>;
}

/** A worker's hashes arrive as Uint8Array (structured clone): the tree's are Buffers. */
const asBuffers = (node: EdgeNode): EdgeNode => ({ level: node.level, hash: Buffer.from(node.hash) });

/**
 * Joins range scans (in leaf order, each clean, together covering [0, size)) into one leaf pass, and
 * checks what crosses range edges as the reference verify checks it in one sweep: each stream's first
 * event in a range links by prevHash to that stream's head in the ranges before (when that head is its
 * predecessor), and positions grow from range to range. Null when a link breaks or a range is unclean
 * or out of place: the reference verify then names the breaks.
 */
export const stitchScans = (scans: RangeScan[], cut: number | null): StitchedPass | null => {
  const nodes: StitchedPass['nodes'] = [];
  const tree = compactRange([], (level, index, hash) => nodes.push({ level, index, hash }));
  const heads = new Map<string, { revision: number; hash: string }>();
  let cutRoot: Buffer | null = null;
  let lastPosition = -1;
  let events = 0;
  const missing: ScanMissing[] = [];
  const deletions: DeletionRecord[] = [];
  const headsBelow = new Map<number, number | null>();
  const tops = new Map<string, number>();
  let spans: PositionSpan[] | null = [];
  let lastSpan: number | null = null;
  let lastLeafPosition = 0;
  for (const scan of scans) {
    if (!scan.clean || scan.from !== tree.size()) return null;
    if (cut !== null && cut > scan.from && cut < scan.to) cutRoot = compactRange([...tree.edge(), ...(scan.cutEdge ?? []).map(asBuffers)]).root();
    if (cut !== null && cut === scan.from && cut > 0) cutRoot = tree.root();
    for (const node of scan.edge) tree.pushSubtree(Buffer.from(node.hash), node.level);
    if (tree.size() !== scan.to) return null;
    if (scan.firstPosition >= 0) {
      if (scan.firstPosition <= lastPosition) return null;
      lastPosition = scan.lastPosition;
    }
    for (const link of scan.firsts) {
      const head = heads.get(link.stream);
      if (head && head.revision === link.revision - 1 && link.prev !== head.hash) return null;
    }
    for (const head of scan.heads) heads.set(head.stream, head);
    // Positions across range edges, as verifyLog's checkLeafPosition: event leaves' grow, and a deletion
    // leaf opening a range repeats the last leaf before it (0 at the log's start).
    if (scan.opening !== null && scan.opening !== (scan.from === 0 ? 0 : lastLeafPosition)) return null;
    if (scan.span && lastSpan !== null && scan.span.first <= lastSpan) return null;
    if (scan.span) lastSpan = scan.span.last;
    lastLeafPosition = scan.lastLeafPosition;
    if (!scan.strayFree) spans = null;
    if (scan.span && spans) spans.push(scan.span);
    events += scan.events;
    missing.push(...scan.missing);
    scan.deletions.forEach((record, at) => {
      const before = tops.get(record.stream) ?? null;
      const inside = scan.deletionTops[at] ?? null;
      headsBelow.set(record.id, inside === null ? before : Math.max(inside, before ?? -1));
      deletions.push(record);
    });
    for (const [stream, top] of scan.tops) if (top > (tops.get(stream) ?? -1)) tops.set(stream, top);
  }
  if (cut !== null && cut === tree.size() && cut > 0) cutRoot = tree.root();
  const lastOf = new Map([...heads].map(([stream, head]) => [stream, head.revision]));
  return { events, edge: tree.edge(), cutRoot, missing, deletions, headsBelow, lastOf, spans, nodes };
};

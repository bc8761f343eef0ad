import type { StoredNode } from './storedNodes.js';
import type { PositionSpan, RangeScan } from './scanRange.js';

/**
 * The log-level commitment as a store keeps it: every event is a leaf of one RFC 9162 Merkle tree
 * in commit order, written in the transaction of its append. Stores that keep it expose this group
 * of operations as `EventStore.log`; the ledger, the CLI and the HTTP service use only these.
 * Leaf indices and sizes are numbers (exact up to 2^53 leaves); hashes are lowercase hex.
 */
export interface LogDigest {
  size: number;
  root: string;
}

/** A stored event's columns as stored (JSON text unparsed: verify parses, and names what fails). */
export interface StoredEventText {
  position: bigint;
  stream: string;
  revision: bigint;
  id: string;
  type: string;
  data: string;
  metadata: string;
  created: string;
}

/**
 * One leaf: an event's, with the event now stored at its position if any; or a deletion's (every
 * delete is itself a leaf, so a digest fixes which deletions happened before it), with its record
 * if it is still stored.
 */
export interface LogEntry {
  index: number;
  /** An event leaf's position; a deletion leaf's is the position of the leaf before it. */
  position: bigint;
  stream: string;
  revision: bigint;
  /** The 32 bytes as stored (verify compares and folds them; hex only when it reports one). */
  leafHash: Buffer;
  event: StoredEventText | null;
  /** A deletion leaf: true, with its record (null when the record is gone). */
  isDeletion: boolean;
  deletion: DeletionRecord | null;
}

/** What a delete erased, recorded in the delete's own transaction. */
export interface DeletionRecord {
  /** The record's id in the store; its leaf in the log commits to the fields below. */
  id: number;
  stream: string;
  kind: 'soft' | 'tombstone';
  /** The erased revisions: fromRevision..headRevision (none when head < from). */
  fromRevision: bigint;
  headRevision: bigint;
  /** The chain hash of the head event, when it was stored. */
  headHash: string | null;
  /** The first and last leaf of the erased events (other streams' leaves may lie between). */
  firstLeaf: number | null;
  lastLeaf: number | null;
  /** The log's size when the delete committed (every erased leaf is below it): its own leaf's index. */
  logSize: number;
  at: string;
}

export interface InclusionProof {
  stream: string;
  revision: bigint;
  position: bigint;
  index: number;
  leafHash: string;
  /** The leaf input (docs/audit.md); null when the event was erased (its leaf hash still proves). */
  leafInput: string | null;
  size: number;
  root: string;
  path: string[];
  /**
   * An erased event's: the recorded deletion that erased it, its leaf index and leaf input, and its
   * audit path in the same tree when that tree holds it. Once erased, the leaf no longer shows
   * which event it held; the deletion shows that its stream's revisions were erased, and a proof of
   * an erased event no deletion accounts for is refused (log_damaged).
   */
  erasedBy?: { index: number; leafInput: string; path: string[] | null };
}

/** Leaves [from, to) of the log. */
export interface LeafRange {
  from: number;
  to: number;
}

/** A store's way to scan ranges of leaves at once (on other threads), for verify to split the log over cores. */
export interface ParallelScanner {
  /** Scans that run at once. */
  workers: number;
  /**
   * Each range scanned as `scanRange` scans it, in range order; `cut` is a saved digest's size. It may
   * stop early once a range is unclean (verify then reads the log itself): the result then holds it.
   */
  scan(ranges: LeafRange[], cut: number | null, onScanned?: (scan: RangeScan) => void): Promise<RangeScan[]>;
  /**
   * Optional: how many stored events lie outside all the spans (verify then knows there are no strays
   * without `strays()`): those below or between them apart from those above the last (on a live
   * ledger, the events appended since verify read the log's size lie there; verify then seeks strays
   * only among them, `strays` with a bound).
   */
  uncovered?(spans: PositionSpan[]): Promise<UncoveredCount>;
}

/** Stored events outside the spans: below the first or between two (`inside`), and above the last (`above`). */
export interface UncoveredCount {
  inside: number;
  above: number;
}

/**
 * Where strays may lie, when verify has checked the rest: at a position above `after`, and not held by
 * a leaf at index `fromLeaf` or later (the leaves below it hold positions up to `after`: verify checked
 * that their positions grow and found no stray among them).
 */
export interface StrayBound {
  after: bigint;
  fromLeaf: number;
}

/** One disagreement between a store's own indexes and its events (`EventLog.indexes`). */
export interface IndexFinding {
  stream: string | null;
  revision: bigint | null;
  position: bigint | null;
  message: string;
}

/** What `EventLog.indexes` found: the first findings, and how many there are in all. */
export interface IndexCheck {
  findings: IndexFinding[];
  total: number;
}

export interface EventLog {
  digest(): Promise<LogDigest>;
  /**
   * Inclusion proof of stream@revision in the tree of `size` leaves (default: the current tree; an
   * auditor asks at the size of a digest it kept); not_found when no leaf below it holds the event.
   */
  proof(stream: string, revision: bigint, size?: number): Promise<InclusionProof>;
  /**
   * Inclusion proof of the leaf at `index`, an event's or a deletion's (its leaf input says which: a
   * deletion's has a `deletion` key; `revision` is then the deletion's head), in the tree of `size`
   * leaves (default: the current tree); not_found when the tree has no such leaf.
   */
  leafProof(index: number, size?: number): Promise<InclusionProof>;
  /** Leaves from index `from`, at most `max`, with the events now at their positions. */
  entries(from: number, max: number): Promise<LogEntry[]>;
  /**
   * Stored events that no leaf holds (inserted behind the store's back), in position order. Given a
   * bound, a store may seek only there (verify has ruled out the rest) or ignore it: the answer is the same.
   */
  strays(bound?: StrayBound): Promise<StoredEventText[]>;
  deletions(): Promise<DeletionRecord[]>;
  /**
   * Optional: the subtree hashes the store keeps (and proofs and roots read) whose last leaf lies in
   * [from, to), at levels from `minLevel` up (storedNodes.ts `nodeSpans`). Verify checks each against
   * the tree its leaves give: a store that keeps none need not offer it.
   */
  nodes?(from: number, to: number, minLevel: number): Promise<StoredNode[]>;
  /**
   * Optional: the store's own indexes checked against its events in one snapshot (the SQLite store:
   * the file's integrity, the id index a retry under `any` relies on, and its watermarks). These are
   * not in the log: a break here loses no history, but makes the store answer wrongly. At most `max`
   * findings are listed; `total` counts them all.
   */
  indexes?(max: number): Promise<IndexCheck>;
  /** Optional: range scans on other threads (the SQLite store's worker threads); verify reads `entries` itself without it. */
  parallel?: ParallelScanner;
}

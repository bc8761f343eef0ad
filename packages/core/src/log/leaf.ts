import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

/** What one event commits to in the log (see docs/audit.md, "Leaf input"). */
export interface LeafFields {
  /** The leaf's place in the log: commit order, 0-based. */
  index: number;
  /**
   * The event's position in `$all`, where a reader resumes. Every leaf written since schema version 7
   * commits to it; leaves written before do not (`null`: the earlier form, which verify still accepts
   * where the stored leaf hash is that form's, see `eventLeafMatches`).
   */
  position: bigint | null;
  stream: string;
  revision: bigint;
  /** The event's chain hash (metadata.hash, recomputed from its content by verify). */
  hash: string;
  /** The time the store committed it, as stored. */
  created: string;
}

/**
 * The leaf input: the UTF-8 bytes of a JSON object with six keys in sorted order (five in the form
 * before schema version 7, without `position`), integers as decimal strings, no white space. Python
 * writes the same bytes with json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode().
 */
export const leafInput = (leaf: LeafFields): string =>
  // The same bytes as JSON.stringify of the object with those keys in that order, written as one
  // template (verify writes one per event): the strings are escaped as JSON.stringify escapes them,
  // and the integers' decimal digits need no escaping.
  `{"created":${JSON.stringify(leaf.created)},"hash":${JSON.stringify(leaf.hash)},"index":"${leaf.index}",${leaf.position === null ? '' : `"position":"${leaf.position}",`}"revision":"${leaf.revision}","stream":${JSON.stringify(leaf.stream)}}`;

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

/**
 * One-shot hashing where Node has it (>= 20.12): no Hash object per leaf and node (verify makes two
 * per event). Its digest is taken as a 'binary' (latin1) string (one char per byte) and made a Buffer from that:
 * on Node 20 that is half the time of asking it for a Buffer.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'binary') => string }).hash;

/** RFC 9162 §2.1.1: SHA-256(0x00 || input). A string input is hashed as its UTF-8 bytes, after a NUL (the byte 0x00). */
export const leafHash = (input: string | Buffer): Buffer => {
  if (oneShot && typeof input === 'string') return Buffer.from(oneShot('sha256', `\u0000${input}`, 'binary'), 'latin1');
  return createHash('sha256').update(LEAF).update(input).digest();
};

/** 0x01 || left || right, written in place (hashing is synchronous: no call sees another's bytes). */
const nodeInput = Buffer.alloc(65, 1);

/** RFC 9162 §2.1.1: SHA-256(0x01 || left || right). */
export const nodeHash = (left: Buffer, right: Buffer): Buffer => {
  if (oneShot && left.length === 32 && right.length === 32) {
    nodeInput.set(left, 1);
    nodeInput.set(right, 33);
    return Buffer.from(oneShot('sha256', nodeInput, 'binary'), 'latin1');
  }
  return createHash('sha256').update(NODE).update(left).update(right).digest();
};

/** The root of the empty tree: SHA-256 of nothing. */
export const emptyRoot = (): Buffer => createHash('sha256').digest();

export const eventLeafHash = (leaf: LeafFields): Buffer => leafHash(leafInput(leaf));

/**
 * The leaf input of an event that hashes to `stored`: with its position (every leaf written since
 * schema version 7), else in the earlier form without it, when that is the one that hashes to
 * `stored`; null when neither does (the event or its place was changed). A leaf written with its
 * position never matches the earlier form (another input), so a position changed since is caught.
 * `earlierFirst` tries the earlier form first: a log's leaves change form once, at the migration,
 * so a reader trying first the form of the leaf before hashes each leaf once (benchmark row "audit
 * verify of 1,000,000 events written before schema 7").
 */
export const eventLeafMatching = (leaf: LeafFields & { position: bigint }, stored: Buffer, earlierFirst = false): { input: string; earlier: boolean } | null => {
  for (const earlier of earlierFirst ? [true, false] : [false, true]) {
    const input = leafInput(earlier ? { ...leaf, position: null } : leaf);
    if (leafHash(input).equals(stored)) return { input, earlier };
  }
  return null;
};

const oneShotHex = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'hex') => string }).hash;

/** leafHash as lowercase hex (verify's range scans compare and fold hashes as hex: no Buffer per leaf). */
export const leafHashHex = (input: string): string =>
  oneShotHex ? oneShotHex('sha256', `\u0000${input}`, 'hex') : createHash('sha256').update(LEAF).update(input).digest('hex');

const nodeInputText = Buffer.alloc(65, 1);
const oneShotText = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'binary') => string }).hash;

/**
 * nodeHash of two hashes given as text, as a binary string (one char per byte, 'latin1'): the two
 * as 64 hex digits (`encoding` 'hex': a range scan's leaf hashes, compared as hex) or as binary
 * strings (the nodes above them). A binary string is written into the input and made by the hash
 * at less cost than hex digits (a range scan hashes one node per leaf).
 */
export const nodeHashText = (left: string, right: string, encoding: 'hex' | 'latin1'): string => {
  nodeInputText.write(left, 1, 32, encoding);
  nodeInputText.write(right, 33, 32, encoding);
  return oneShotText ? oneShotText('sha256', nodeInputText, 'binary') : createHash('sha256').update(nodeInputText).digest('binary');
};

/** What a deletion leaf commits to: the deletion record's own fields (docs/audit.md, "Deletion leaves"). */
export interface DeletionLeafFields {
  index: number;
  stream: string;
  kind: 'soft' | 'tombstone';
  fromRevision: bigint;
  headRevision: bigint;
  headHash: string | null;
  at: string;
}

/** A deletion's leaf input: seven keys in sorted order, integers as decimal strings, like an event's. */
export const deletionLeafInput = (leaf: DeletionLeafFields): string =>
  JSON.stringify({
    at: leaf.at,
    deletion: leaf.kind,
    from: leaf.fromRevision.toString(),
    head: leaf.headRevision.toString(),
    headHash: leaf.headHash,
    index: String(leaf.index),
    stream: leaf.stream,
  });

export const deletionLeafHash = (leaf: DeletionLeafFields): Buffer => leafHash(deletionLeafInput(leaf));

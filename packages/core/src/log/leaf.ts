import { createHash } from 'node:crypto';

/** What one event commits to in the log (see docs/audit.md, "Leaf input"). */
export interface LeafFields {
  /** The leaf's place in the log: commit order, 0-based. */
  index: number;
  stream: string;
  revision: bigint;
  /** The event's chain hash (metadata.hash, recomputed from its content by verify). */
  hash: string;
  /** The time the store committed it, as stored. */
  created: string;
}

/**
 * The leaf input: the UTF-8 bytes of a JSON object with five keys in sorted order, integers as
 * decimal strings, no white space. Python writes the same bytes with
 * json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode().
 */
export const leafInput = (leaf: LeafFields): string =>
  JSON.stringify({ created: leaf.created, hash: leaf.hash, index: String(leaf.index), revision: leaf.revision.toString(), stream: leaf.stream });

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

/** RFC 9162 §2.1.1: SHA-256(0x00 || input). */
export const leafHash = (input: string | Buffer): Buffer => createHash('sha256').update(LEAF).update(input).digest();

/** RFC 9162 §2.1.1: SHA-256(0x01 || left || right). */
export const nodeHash = (left: Buffer, right: Buffer): Buffer => createHash('sha256').update(NODE).update(left).update(right).digest();

/** The root of the empty tree: SHA-256 of nothing. */
export const emptyRoot = (): Buffer => createHash('sha256').digest();

export const eventLeafHash = (leaf: LeafFields): Buffer => leafHash(leafInput(leaf));

import { emptyRoot, nodeHash } from './leaf.js';

/** The hash of the complete, aligned subtree of 2^level leaves at `index` (level 0: a leaf hash). */
export type SubtreeLookup = (level: number, index: number) => Buffer;

/** The largest power of two strictly below n (n >= 2). */
export const splitPoint = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

const levelOf = (size: number): number => {
  let level = 0;
  while (2 ** level < size) level += 1;
  return level;
};

export const isPowerOfTwo = (n: number): boolean => n > 0 && 2 ** levelOf(n) === n;

/**
 * MTH(D[start:end]) of RFC 9162 §2.1.1 from stored complete subtrees: a range reached by the
 * recursion is either a complete aligned subtree (one lookup) or split at the largest power of two.
 */
export const rangeRoot = (start: number, end: number, lookup: SubtreeLookup): Buffer => {
  const size = end - start;
  if (size === 0) return emptyRoot();
  if (isPowerOfTwo(size) && start % size === 0) {
    const level = levelOf(size);
    return lookup(level, start / size);
  }
  const k = splitPoint(size);
  return nodeHash(rangeRoot(start, start + k, lookup), rangeRoot(start + k, end, lookup));
};

/** MTH over a list of leaf hashes (tests, small trees). */
export const treeRoot = (leaves: Buffer[]): Buffer => {
  if (leaves.length === 0) return emptyRoot();
  if (leaves.length === 1) return leaves[0]!;
  const k = splitPoint(leaves.length);
  return nodeHash(treeRoot(leaves.slice(0, k)), treeRoot(leaves.slice(k)));
};

/** One complete, aligned subtree on a compact range's right edge: 2^level leaves folded into `hash`. */
export interface EdgeNode {
  level: number;
  hash: Buffer;
}

/**
 * A streaming root: leaves pushed in order keep only the right edge (one hash per set bit of the
 * size), so the whole log is folded in O(n) hashes and O(log n) memory. `start` continues from an
 * edge taken earlier (`edge()`), which is how the ranges a parallel verify folded are joined.
 */
export const compactRange = (start: EdgeNode[] = [], onNode?: (level: number, index: number, hash: Buffer) => void) => {
  const stack: EdgeNode[] = start.map((node) => ({ ...node }));
  let size = stack.reduce((sum, node) => sum + 2 ** node.level, 0);
  /** A complete subtree of 2^level leaves; the size so far must be a multiple of 2^level. `onNode` hears each subtree the push completes above it. */
  const pushSubtree = (hash: Buffer, level: number) => {
    if (size % 2 ** level !== 0) throw new RangeError(`a subtree of 2^${level} leaves cannot follow ${size} leaves`);
    let top = { level, hash };
    const end = size + 2 ** level;
    while (stack.length > 0 && stack[stack.length - 1]!.level === top.level) {
      const left = stack.pop()!;
      top = { level: top.level + 1, hash: nodeHash(left.hash, top.hash) };
      onNode?.(top.level, end / 2 ** top.level - 1, top.hash);
    }
    stack.push(top);
    size += 2 ** level;
  };
  return {
    push: (hash: Buffer) => pushSubtree(hash, 0),
    pushSubtree,
    size: () => size,
    /** The right edge now, left to right (a copy). */
    edge: (): EdgeNode[] => stack.map((node) => ({ ...node })),
    /** MTH of everything pushed so far: the right edge folded from the right. */
    root(): Buffer {
      if (stack.length === 0) return emptyRoot();
      let root = stack[stack.length - 1]!.hash;
      for (let at = stack.length - 2; at >= 0; at -= 1) root = nodeHash(stack[at]!.hash, root);
      return root;
    },
  };
};

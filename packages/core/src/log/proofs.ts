import { nodeHash } from './leaf.js';
import { isPowerOfTwo, rangeRoot, splitPoint, type SubtreeLookup } from './merkle.js';

/** RFC 9162 §2.1.3.1 PATH(m, D[n]), leaf first, from stored subtrees. */
export const inclusionPath = (index: number, size: number, lookup: SubtreeLookup): Buffer[] => {
  const path: Buffer[] = [];
  const walk = (m: number, start: number, end: number): void => {
    const n = end - start;
    if (n <= 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, start, start + k);
      path.push(rangeRoot(start + k, end, lookup));
    } else {
      walk(m - k, start + k, end);
      path.push(rangeRoot(start, start + k, lookup));
    }
  };
  if (index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  walk(index, 0, size);
  return path;
};

/** RFC 9162 §2.1.4.1 PROOF(m, D[n]) for 0 < m <= n. */
export const consistencyProof = (first: number, size: number, lookup: SubtreeLookup): Buffer[] => {
  const proof: Buffer[] = [];
  const sub = (m: number, start: number, end: number, complete: boolean): void => {
    const n = end - start;
    if (m === n) {
      if (!complete) proof.push(rangeRoot(start, end, lookup));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, start, start + k, complete);
      proof.push(rangeRoot(start + k, end, lookup));
    } else {
      sub(m - k, start + k, end, false);
      proof.push(rangeRoot(start, start + k, lookup));
    }
  };
  if (first <= 0 || first > size) throw new RangeError(`no consistency proof from ${first} to ${size}`);
  sub(first, 0, size, true);
  return proof;
};

const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/** RFC 9162 §2.1.3.2: whether `path` proves `leaf` at `index` in the tree of `size` with `root`. */
export const verifyInclusion = (index: number, size: number, leaf: Buffer, path: Buffer[], root: Buffer): boolean => {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && r.equals(root);
};

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree (size, root) extends (first, firstRoot). */
export const verifyConsistency = (first: number, firstRoot: Buffer, size: number, root: Buffer, proof: Buffer[]): boolean => {
  if (first <= 0 || first > size) return false;
  if (first === size) return proof.length === 0 && firstRoot.equals(root);
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof;
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = size - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return fr.equals(firstRoot) && sr.equals(root) && sn === 0;
};

import { describe, expect, it } from 'vitest';
import {
  compactRange,
  consistencyProof,
  eventLeafHash,
  eventLeafMatching,
  inclusionPath,
  leafHash,
  leafHashHex,
  leafInput,
  nodeHash,
  nodeHashText,
  rangeRoot,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  type SubtreeLookup,
} from '@session-ledger/core';
import { createHash } from 'node:crypto';

const hex = (buffer: Buffer) => buffer.toString('hex');
const fromHex = (text: string) => Buffer.from(text, 'hex');

/** The leaves of RFC 6962's reference tests (certificate-transparency merkle_tree_test). */
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((data) =>
  leafHash(fromHex(data)),
);
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** The event-leaf vectors pinned in docs/audit.md (computed independently in Python): positions index + 1, or the form before schema 7 (null). */
const vectorLeaf = (index: number, position: bigint | null = BigInt(index + 1)) =>
  eventLeafHash({
    index,
    position,
    stream: 'vector',
    revision: BigInt(index),
    hash: createHash('sha256').update(String(index)).digest('hex'),
    created: '2026-01-01T00:00:00.000Z',
  });
const DOC_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '02efb95fb0ff6345145585fa7d6fc08696a91c6bb39fda7b873ddab3cd05d243',
  '7d53654f6c1231e79d5e8dc779a2e0bf6009764db7334968d0587db32f7b50f7',
  'cddb98fb07e3c9909b50f6e4446405039742da6d52e941bbd5bc82e384d09adb',
  '3971763b5009ec38998237ea7e551b562f7a8891e68142296c0d775b005b0f5c',
  'd5185d01088c4fc4316c1e0d9c5f2abb1850753371fa3f87141d9c5a62255da1',
  'e91d88a357f01333bfa5f82ff05f3cf8e5de1fe9f9fbac3f4061dd7b040ce769',
  '351576d8ea04017facbd3d9612a3ac3aaed0f854daa4cb69bda5d45043292732',
  '1ca14741794f7d9bac65c78ac89e902e3e9ba4a3fb4149663024106581cea890',
];
/** The same leaves in the form written before schema version 7 (no position). */
const EARLIER_DOC_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '46747a2adcd9ed2952d23949fe7b7d8f65f31d2e9b47fd9c3c86d678bc3be51d',
  '054885a42ef0b6a0663e87218fc70f11b40b626a027ed645e6d2176d25bae83d',
  '73646a732451395a4b7218ed38312332b2b58197551083095e4222970ffd803b',
  '16d15f4e0f47075311f5486b0458eea80c7f10f60a7b4d7f5b735c04d1272649',
  '6eba51594f498bb085d5dd1dc256bdf42ac26c534631779a74a24035fc00e082',
  '01034cca1073d6a160f28f00df538537ba4950eefc8977999f793263ca19c99b',
  'e5a31da25fa905c51f1910828c2e79de7ebdab5054da183a3be365a476c76b45',
  '6f03bf4a1616e6e0a11a257f31b3c284a0f0a3b7b66804dcb36e851c923dfa4d',
];

/** Complete subtrees computed from a leaf list, as the store keeps them. */
const lookupOf =
  (leaves: Buffer[]): SubtreeLookup =>
  (level, index) =>
    treeRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));

describe('the log hashing rules (RFC 9162)', () => {
  it('roots match the RFC 6962 reference vectors for 1..8 leaves', () => {
    CT_ROOTS.forEach((root, at) => expect(hex(treeRoot(CT_LEAVES.slice(0, at + 1)))).toBe(root));
  });

  it('the event leaf input is the documented byte string, with its position, and in the earlier form without', () => {
    expect(leafInput({ index: 3, position: 12n, stream: 'a"b', revision: 7n, hash: 'ab', created: 'c' })).toBe(
      '{"created":"c","hash":"ab","index":"3","position":"12","revision":"7","stream":"a\\"b"}',
    );
    expect(leafInput({ index: 3, position: null, stream: 'a"b', revision: 7n, hash: 'ab', created: 'c' })).toBe(
      '{"created":"c","hash":"ab","index":"3","revision":"7","stream":"a\\"b"}',
    );
  });

  it('roots of 0..8 event leaves match the vectors in docs/audit.md, in both forms', () => {
    const leaves = Array.from({ length: 8 }, (_, index) => vectorLeaf(index));
    DOC_ROOTS.forEach((root, size) => expect(hex(treeRoot(leaves.slice(0, size)))).toBe(root));
    const earlier = Array.from({ length: 8 }, (_, index) => vectorLeaf(index, null));
    EARLIER_DOC_ROOTS.forEach((root, size) => expect(hex(treeRoot(earlier.slice(0, size)))).toBe(root));
  });

  it('a leaf matches its event in the form it was written in, and never with another position', () => {
    const fields = { index: 2, position: 3n, stream: 'vector', revision: 2n, hash: createHash('sha256').update('2').digest('hex'), created: '2026-01-01T00:00:00.000Z' };
    for (const earlierFirst of [false, true]) {
      expect(eventLeafMatching(fields, vectorLeaf(2), earlierFirst)).toEqual({ input: leafInput(fields), earlier: false });
      expect(eventLeafMatching(fields, vectorLeaf(2, null), earlierFirst)).toEqual({ input: leafInput({ ...fields, position: null }), earlier: true });
    }
    expect(eventLeafMatching({ ...fields, position: 4n }, vectorLeaf(2))).toBeNull();
    expect(eventLeafMatching({ ...fields, revision: 3n }, vectorLeaf(2, null))).toBeNull();
  });

  it('the stored-subtree root and the streaming root equal MTH for every size up to 40', () => {
    const leaves = Array.from({ length: 40 }, (_, index) => leafHash(Buffer.from([index])));
    const range = compactRange();
    for (let size = 0; size <= 40; size += 1) {
      const expected = hex(treeRoot(leaves.slice(0, size)));
      expect(hex(rangeRoot(0, size, lookupOf(leaves)))).toBe(expected);
      expect(hex(range.root())).toBe(expected);
      if (size < 40) range.push(leaves[size]!);
    }
  });

  it('inclusion paths match the reference vectors', () => {
    const lookup = lookupOf(CT_LEAVES);
    expect(inclusionPath(0, 8, lookup).map(hex)).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
    expect(inclusionPath(5, 8, lookup).map(hex)).toEqual([
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(inclusionPath(0, 1, lookup)).toEqual([]);
  });

  it('consistency proofs match the reference vectors', () => {
    const lookup = lookupOf(CT_LEAVES);
    expect(consistencyProof(1, 8, lookup).map(hex)).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
    expect(consistencyProof(6, 8, lookup).map(hex)).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(consistencyProof(2, 5, lookup).map(hex)).toEqual([
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ]);
  });

  it('every inclusion and consistency proof of trees up to 20 verifies, and fails once altered', () => {
    const leaves = Array.from({ length: 20 }, (_, index) => leafHash(Buffer.from([index, 1])));
    const lookup = lookupOf(leaves);
    for (let size = 1; size <= 20; size += 1) {
      const root = treeRoot(leaves.slice(0, size));
      for (let index = 0; index < size; index += 1) {
        const path = inclusionPath(index, size, lookup);
        expect(verifyInclusion(index, size, leaves[index]!, path, root)).toBe(true);
        expect(verifyInclusion(index, size, leaves[(index + 1) % 20]!, path, root)).toBe(false);
        if (path.length > 0) expect(verifyInclusion(index, size, leaves[index]!, path.slice(1), root)).toBe(false);
        expect(verifyInclusion(index, size, leaves[index]!, path, treeRoot(leaves.slice(0, size - 1 + (size === 1 ? 2 : 0))))).toBe(false);
        expect(verifyInclusion(size, size, leaves[index]!, path, root)).toBe(false);
      }
      for (let first = 1; first <= size; first += 1) {
        const proof = consistencyProof(first, size, lookup);
        const firstRoot = treeRoot(leaves.slice(0, first));
        expect(verifyConsistency(first, firstRoot, size, root, proof)).toBe(true);
        expect(verifyConsistency(first, leaves[0]!.equals(firstRoot) ? leaves[1]! : leaves[0]!, size, root, proof)).toBe(false);
      }
    }
  });

  it('the hex hashes of the range scans and a compact range joined from edges agree with the Buffer ones', () => {
    const leaves = Array.from({ length: 37 }, (_, n) => leafHash(`leaf ${n} \u00e9`));
    for (let n = 0; n < 37; n += 1) expect(leafHashHex(`leaf ${n} \u00e9`)).toBe(leaves[n]!.toString('hex'));
    expect(nodeHashText(leaves[0]!.toString('hex'), leaves[1]!.toString('hex').toUpperCase(), 'hex')).toBe(nodeHash(leaves[0]!, leaves[1]!).toString('latin1'));
    expect(nodeHashText(leaves[0]!.toString('latin1'), leaves[1]!.toString('latin1'), 'latin1')).toBe(nodeHash(leaves[0]!, leaves[1]!).toString('latin1'));
    // Joined at every aligned split: the first part's edge, then the second part's subtrees.
    for (const split of [8, 16, 32]) {
      const head = compactRange();
      leaves.slice(0, split).forEach((leaf) => head.push(leaf));
      const tail = compactRange();
      leaves.slice(split, split * 2).forEach((leaf) => tail.push(leaf));
      const joined = compactRange(head.edge());
      for (const node of tail.edge()) joined.pushSubtree(node.hash, node.level);
      expect(joined.root().equals(treeRoot(leaves.slice(0, Math.min(37, split * 2))))).toBe(true);
    }
    expect(() => compactRange([{ level: 0, hash: leaves[0]! }]).pushSubtree(leaves[1]!, 1)).toThrow(RangeError);
  });
});

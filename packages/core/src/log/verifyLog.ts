import type { EventStore } from '../port.js';
import { invalidInput, isLedgerError, LedgerError } from '../errors.js';
import { at, type BreakKind, type LogBreak } from './breaks.js';
import { deletionLeafHash, eventLeafHash, eventLeafMatching } from './leaf.js';
import { compactRange } from './merkle.js';
import type { DeletionRecord, EventLog, LogDigest, LogEntry, StoredEventText } from './port.js';
import { digestSignedBy, type SignedDigest } from './digest.js';
import { checkDeletionHeads, checkDeletions } from './verifyDeletions.js';
import { checkStreamStates, lastRevisions } from './streamStates.js';
import { checkIndexes } from './verifyIndexes.js';
import { nodeMismatch, type StoredNode } from './storedNodes.js';
import { rehash } from './rehash.js';
import { logUnsupported } from './errors.js';
import { parallelPass, type ParallelOptions } from './parallelPass.js';

export interface VerifyLogOptions {
  /** A digest saved earlier: the log must extend it. */
  digest?: LogDigest | SignedDigest;
  /** A PEM Ed25519 public key: the digest must carry its signature. */
  publicKey?: string;
  /** Breaks listed at most (all are counted). Default 100. */
  maxBreaks?: number;
  onProgress?: (done: number) => void;
  /**
   * The leaves scanned in ranges at once, by the store's scanner (`EventLog.parallel`: the SQLite
   * store's worker threads) when it has one. A clean scan gives the report the one-thread sweep gives;
   * when any range or link between ranges is not clean, verify sweeps the log on this thread to name
   * every break in order. false: always the sweep.
   */
  parallel?: false | ParallelOptions;
  /** Also the store's own indexes against its events (`EventLog.indexes`), where the store has that check. */
  indexes?: boolean;
}

export interface LogVerifyReport {
  ok: boolean;
  /** The log verified: its size and root as stored. */
  size: number;
  root: string;
  /** Leaves whose events are stored and checked. */
  events: number;
  /** Leaves whose events were erased by a recorded deletion. */
  erased: number;
  breakCount: number;
  breaks: LogBreak[];
  /** The first break, or null: the field the chain-only verify reported, kept for its readers. */
  broken: LogBreak | null;
  /** With `indexes`: whether the store's own indexes were checked (false: the store has no such check). */
  indexesChecked?: boolean;
}

const PAGE = 5000;

/** The log's digest as stored, or the log_damaged error when a leaf it needs is gone. */
const storedDigest = async (log: EventLog): Promise<LogDigest | LedgerError<'log_damaged'>> => {
  try {
    return await log.digest();
  } catch (error) {
    if (isLedgerError(error, 'log_damaged')) return error;
    throw error;
  }
};

/**
 * Verifies the whole log: every stored event against its chain hash, its stream's chain and its
 * leaf (which commits to its place, stream, revision, chain hash and created); the stored tree
 * against its leaves; every missing event against the recorded deletions; every stream's state
 * against them; and, given a saved digest, that the log extends it. Every break is counted, the
 * first `maxBreaks` are listed; nothing stops it early.
 */
export const verifyLog = async (store: EventStore, options: VerifyLogOptions = {}): Promise<LogVerifyReport> => {
  const log = store.log;
  if (!log) throw logUnsupported(store.name);
  const maxBreaks = options.maxBreaks ?? 100;
  const breaks: LogBreak[] = [];
  let breakCount = 0;
  const report = (kind: BreakKind, stream: string | null, revision: bigint | null, position: bigint | null, leaf: number | null, what: string) => {
    breakCount += 1;
    if (breaks.length < maxBreaks) breaks.push({ kind, stream, revision, position, leaf, message: `${at(stream, revision)}: ${what}` });
  };

  if (options.publicKey !== undefined) {
    if (!options.digest) throw invalidInput('A public key checks a saved digest: give the digest too', 'digest');
    if (!('at' in options.digest) || !digestSignedBy(options.digest, options.publicKey)) {
      report('signature', null, null, null, null, 'the saved digest is not signed by the given public key (or was altered since)');
    }
  }
  // A leaf gone leaves the stored tree without a root: verify then reads every leaf there is and names the gap.
  const head = await storedDigest(log);
  const damaged = head instanceof LedgerError ? head : null;
  let stored: LogDigest = head instanceof LedgerError ? { size: Number.MAX_SAFE_INTEGER, root: '' } : head;
  let range = compactRange();
  let savedRoot: string | null = options.digest?.size === 0 ? range.root().toString('hex') : null;
  const heads = new Map<string, { revision: bigint; hash: string }>();
  /** Whether the last event leaf had the form before schema version 7 (leaf.ts, eventLeafMatching). */
  let earlierForm = false;
  const missing: LogEntry[] = [];
  /** Each stream's last revision among its event leaves whose events are stored (checkDeletions adds its deletions). */
  const lastOf = new Map<string, bigint>();
  let lastPosition = -1n;
  let firstLeafBreak: LogBreak | null = null;
  let checked = 0;

  const committed: DeletionRecord[] = [];
  /** Each stream's highest event-leaf revision so far, and each deletion record's at its leaf (checkDeletionHeads). */
  const tops = new Map<string, bigint>();
  const headsBelow = new Map<number, bigint | null>();
  const checkDeletionLeaf = (entry: LogEntry) => {
    const record = entry.deletion;
    if (!record) {
      report('missing', entry.stream, null, null, entry.index, `the deletion record leaf ${entry.index} commits to is gone`);
      return;
    }
    const leaf = deletionLeafHash({ index: entry.index, ...record });
    if (!leaf.equals(entry.leafHash) || record.logSize !== entry.index) {
      report('leaf', record.stream, record.headRevision, null, entry.index, `the deletion record (${record.kind} through revision ${record.headRevision}) does not hash to its leaf ${entry.index}`);
      return;
    }
    committed.push(record);
    headsBelow.set(record.id, tops.get(record.stream) ?? null);
  };

  /**
   * The positions no hash covers: an erased event's leaf cannot be rehashed, and a deletion leaf's input
   * holds none. Event leaves' positions grow, erased ones too, and a deletion leaf repeats the leaf
   * before's (the store's rule, tree.ts): the store takes the last leaf's as the highest ever assigned,
   * so lowering the trailing ones verified clean and gave out positions subscribers had already seen
   * (outside test, session 34, helper-95 F9).
   */
  let lastLeafPosition = 0n;
  const checkLeafPosition = (entry: LogEntry): void => {
    if (entry.isDeletion) {
      if (entry.position !== lastLeafPosition) report('position', entry.stream, entry.revision, entry.position, entry.index, `deletion leaf ${entry.index} holds position ${entry.position}, the leaf before it ${lastLeafPosition}`);
    } else if (!entry.event && entry.position <= lastPosition) {
      report('position', entry.stream, entry.revision, entry.position, entry.index, `erased event leaf ${entry.index} holds position ${entry.position}, which does not follow ${lastPosition}`);
    }
    if (!entry.isDeletion) lastPosition = entry.position > lastPosition ? entry.position : lastPosition;
    lastLeafPosition = entry.position;
  };

  const checkEntry = (entry: LogEntry) => {
    const { event } = entry;
    const count = breakCount;
    if (entry.isDeletion || !event) checkLeafPosition(entry);
    if (entry.isDeletion) {
      checkDeletionLeaf(entry);
      return;
    }
    if (entry.revision > (tops.get(entry.stream) ?? -1n)) tops.set(entry.stream, entry.revision);
    if (!event) {
      missing.push(entry);
      return;
    }
    if (entry.revision > (lastOf.get(entry.stream) ?? -1n)) lastOf.set(entry.stream, entry.revision);
    if (event.stream !== entry.stream || event.revision !== entry.revision) {
      report('position', entry.stream, entry.revision, entry.position, entry.index, `position ${entry.position} holds ${at(event.stream, event.revision)}, the log says this event`);
      return;
    }
    if (event.position <= lastPosition) report('position', entry.stream, entry.revision, entry.position, entry.index, `position ${event.position} does not follow ${lastPosition}`);
    lastPosition = event.position;
    lastLeafPosition = event.position;
    checked += 1;
    const result = rehash(event);
    if ('error' in result) {
      report('json', entry.stream, entry.revision, entry.position, entry.index, `stored JSON ${result.error}`);
      return;
    }
    if (result.stored !== result.hash) report('hash', entry.stream, entry.revision, entry.position, entry.index, `content hashes to ${result.hash}, stored hash is ${String(result.stored)}`);
    const head = heads.get(entry.stream);
    const expectedPrev = head && head.revision === entry.revision - 1n ? head.hash : entry.revision === 0n ? null : undefined;
    if (expectedPrev !== undefined && result.prev !== expectedPrev) report('prev', entry.stream, entry.revision, entry.position, entry.index, `prevHash ${String(result.prev)} is not the predecessor's ${String(expectedPrev)}`);
    // The next link is checked against the hash as stored: a changed event is one break, not two.
    heads.set(entry.stream, { revision: entry.revision, hash: typeof result.stored === 'string' ? result.stored : result.hash });
    const fields = { index: entry.index, position: event.position, stream: entry.stream, revision: entry.revision, hash: result.hash, created: event.created };
    const matched = eventLeafMatching(fields, entry.leafHash, earlierForm);
    if (matched) earlierForm = matched.earlier;
    else {
      const leaf = eventLeafHash(fields).toString('hex');
      report('leaf', entry.stream, entry.revision, entry.position, entry.index, `the event (content, created or place) hashes to leaf ${leaf}, the log holds ${entry.leafHash.toString('hex')}`);
    }
    if (breakCount > count && !firstLeafBreak) firstLeafBreak = { kind: 'leaf', stream: entry.stream, revision: entry.revision, position: entry.position, leaf: entry.index, message: '' };
  };

  // Stored subtree hashes (proofs and roots read them) against the tree the leaves give, as each completes.
  let pageNodes: Array<Map<number, unknown> | undefined> = [];
  const byLevel = (nodes: StoredNode[]) => {
    const out: Array<Map<number, unknown> | undefined> = [];
    for (const node of nodes) (out[node.level] ??= new Map()).set(node.index, node.hash);
    return out;
  };
  const checkNode = (level: number, index: number, hash: Buffer) => {
    const kept = pageNodes[level]?.get(index);
    if (kept !== undefined && !(Buffer.isBuffer(kept) && kept.equals(hash))) report('root', null, null, null, index * 2 ** level, nodeMismatch(level, index));
  };
  range = compactRange([], checkNode);

  const cut = options.digest && options.digest.size > 0 && options.digest.size <= stored.size ? options.digest.size : null;
  const fast = options.parallel === false || damaged ? null : await parallelPass(options.parallel?.scanner ?? log.parallel, stored.size, cut, options.parallel ?? {}, options.onProgress);
  if (fast) {
    // Every leaf passed every check: the state the sweep below would end with, and no breaks.
    range = compactRange(fast.edge);
    if (fast.cutRoot) savedRoot = fast.cutRoot.toString('hex');
    checked = fast.events;
    for (const entry of fast.missing) missing.push({ ...entry, position: BigInt(entry.position), revision: BigInt(entry.revision), leafHash: Buffer.alloc(0), event: null, isDeletion: false, deletion: null });
    committed.push(...fast.deletions);
    for (const [id, head] of fast.headsBelow) headsBelow.set(id, head === null ? null : BigInt(head));
    for (const [stream, revision] of fast.lastOf) lastOf.set(stream, BigInt(revision));
    // The ranges checked the stored nodes inside them; those above a range's own are checked here.
    if (log.nodes && fast.nodes.length > 0) {
      pageNodes = byLevel(await log.nodes(0, stored.size, Math.min(...fast.nodes.map((node) => node.level))));
      for (const node of fast.nodes) checkNode(node.level, node.index, node.hash);
    }
  }
  for (let from = fast ? stored.size : 0; from < stored.size; ) {
    const page = await log.entries(from, Math.min(PAGE, stored.size - from));
    if (page.length === 0) break;
    if (log.nodes) pageNodes = byLevel(await log.nodes(page[0]!.index, page[page.length - 1]!.index + 1, 1));
    for (const entry of page) {
      if (entry.index !== range.size()) {
        report('root', entry.stream, entry.revision, entry.position, entry.index, `leaf ${entry.index} follows leaf ${range.size() - 1}: leaves are missing from the log`);
      }
      if (options.digest && range.size() === options.digest.size) savedRoot = range.root().toString('hex');
      checkEntry(entry);
      range.push(entry.leafHash);
    }
    from = page[page.length - 1]!.index + 1;
    options.onProgress?.(from);
  }
  if (options.digest && range.size() === options.digest.size) savedRoot = range.root().toString('hex');

  const root = range.root().toString('hex');
  if (damaged) {
    stored = { size: range.size(), root };
    report('root', null, null, null, damaged.details.leaf, `the stored tree has no root: its leaf ${damaged.details.leaf} is gone or holds no hash`);
  } else if (range.size() !== stored.size || root !== stored.root) {
    report('root', null, null, null, null, `the stored tree's root ${stored.root} (size ${stored.size}) is not the root of its leaves, ${root} (size ${range.size()})`);
  }
  // A clean pass leaves strays only where it could not rule them out: nowhere, above its last span (appends since), or anywhere.
  const left = fast?.strays ?? 'anywhere';
  const strays = left === 'none' ? [] : await log.strays(left === 'anywhere' ? undefined : { after: BigInt(left.after), fromLeaf: stored.size });
  for (const stray of strays) report('stray', stray.stream, stray.revision, stray.position, null, `stored at position ${stray.position} but in no leaf of the log`);
  // Stream states are read before the log's end: no append after that end can make a state look ahead of the log.
  const listedAt = await storedDigest(log);
  // A state the store cannot read (a cell edited into no number: store_unavailable) is a break naming it, and the states go unchecked.
  const listed = store.listStreams
    ? await store.listStreams().catch((error: unknown) => {
        if (!isLedgerError(error, 'store_unavailable') || error.details.cause !== 'LEDGER_DAMAGED') throw error;
        report('hidden', null, null, null, null, `the stream states cannot be read: ${error.message}`);
        return null;
      })
    : null;
  // The deletion records, then the log's end: a record and its leaf commit together, so every record
  // read has its leaf below that end; one a deletion commits after is not read, and its stream's
  // state was listed before it (a live ledger: outside test, session 14).
  const records = await log.deletions();
  const last = await storedDigest(log);
  const end = last instanceof LedgerError ? stored : last;
  // Deletes committed while this ran (their leaves lie past the size verified): checked leaf by leaf.
  const later = records.filter((record) => record.logSize >= stored.size && record.logSize < end.size);
  for (const record of later) {
    const [entry] = await log.entries(record.logSize, 1);
    const leaf = entry?.isDeletion && entry.deletion?.id === record.id ? deletionLeafHash({ index: entry.index, ...record }) : null;
    if (leaf && leaf.equals(entry!.leafHash)) committed.push(record);
  }
  const deletions = checkDeletions(records, missing, committed, stored.size, report);
  checkDeletionHeads(committed, headsBelow, report);
  if (listed) checkStreamStates(listed, { verified: lastOf, appended: await lastRevisions(log, stored.size, end.size), size: stored.size, listedAt: listedAt instanceof LedgerError ? stored.size : listedAt.size }, committed, report);

  if (options.digest) {
    const saved = options.digest;
    if (saved.size > stored.size) report('digest', null, null, null, null, `the log has ${stored.size} leaves, fewer than the saved digest's ${saved.size}`);
    else if (savedRoot !== saved.root) {
      const first = firstLeafBreak as LogBreak | null;
      const where = first && first.leaf! < saved.size ? ` first divergent: position ${first.position}, ${at(first.stream, first.revision)} (leaf ${first.leaf})` : ' (the leaves before it were rewritten with the log)';
      report('digest', first?.stream ?? null, first?.revision ?? null, first?.position ?? null, first?.leaf ?? null, `the log does not extend the saved digest of size ${saved.size}: its root there is ${savedRoot}, the digest says ${saved.root};${where}`);
    }
  }
  const indexesChecked = options.indexes ? await checkIndexes(log, maxBreaks, report, (unlisted) => (breakCount += unlisted)) : undefined;
  return {
    ok: breakCount === 0,
    size: stored.size,
    root: stored.root,
    events: checked,
    erased: deletions.erased,
    breakCount,
    breaks,
    broken: breaks[0] ?? null,
    ...(indexesChecked === undefined ? {} : { indexesChecked }),
  };
};

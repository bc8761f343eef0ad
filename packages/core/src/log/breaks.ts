/** What one break is: each names the event (stream@revision, position) where it can. */
export type BreakKind =
  /** Stored data or metadata is not JSON. */
  | 'json'
  /** The event's content does not hash to its stored chain hash. */
  | 'hash'
  /** The event's prevHash is not its predecessor's hash. */
  | 'prev'
  /** The event (content, created, or place) does not hash to its leaf. */
  | 'leaf'
  /** The event stored at the leaf's position is another one, or positions do not grow with leaves. */
  | 'position'
  /** The leaf's event is gone and no recorded deletion erased it. */
  | 'missing'
  /** A stored event that no leaf holds (inserted behind the store's back). */
  | 'stray'
  /** A stream's state hides events (first_live raised, tombstoned) without a recorded deletion. */
  | 'hidden'
  /** The stored tree does not hash to the root of its leaves. */
  | 'root'
  /** The log does not extend the saved digest. */
  | 'digest'
  /** The saved digest's signature is missing or not by the given key. */
  | 'signature'
  /** A deletion record that no leaf of the log commits to (written behind the store's back). */
  | 'deletion'
  /** The store's own indexes disagree with its events (asked for: `indexes`). */
  | 'index';

export interface LogBreak {
  kind: BreakKind;
  stream: string | null;
  revision: bigint | null;
  position: bigint | null;
  /** The leaf index, when the break is at a leaf. */
  leaf: number | null;
  message: string;
}

export const at = (stream: string | null, revision: bigint | null) => (stream === null ? 'the log' : `${stream}@${revision ?? '?'}`);

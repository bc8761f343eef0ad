import type { HermesMessage, HermesSession } from '../model.js';

export type LedgerLink = 'compression' | 'delegation' | 'branch' | 'reset';

/** A row recorded as a copy of an earlier row (a carried-over tail or head): one logical message. */
export interface CopyRow {
  row: HermesMessage;
  /** The ledger message id of the row it copies. */
  of: string;
}

/**
 * One session's history as ordered steps, independent of the ledger's encoding. The order is Hermes'
 * insertion order (messages.id), with compaction and rewind steps where Hermes made them, so the
 * plan of a newer copy of the file extends the plan of an older copy.
 */
export type PlanStep =
  | {
      kind: 'start';
      session: HermesSession;
      link: LedgerLink | null;
      parentId: string | null;
      rootId: string;
      /** Hermes' own relation to the parent (root, compression, branch, delegate, reset, child). */
      hermesKind: string;
      /**
       * For a compression child: the summary it starts from. `inline`: the summary row is also one of
       * the child's messages, where Hermes placed it (files without `_compressed_summary`).
       */
      summary?: { id: string; row: HermesMessage | null; inline?: boolean };
    }
  | { kind: 'message'; row: HermesMessage; messageId: string }
  | {
      kind: 'compaction';
      /** Ledger message ids the compaction took out of the active view. */
      messageIds: string[];
      /**
       * The last of them, when they are every message still active up to it: then the compaction
       * also retires the summaries before it, as Hermes archives every active row, summaries included.
       */
      through: string | null;
      /** Earlier summaries it archived. */
      summaryIds: string[];
      summaryId: string;
      /** The summary row, or null when Hermes left none (then the summary is empty). */
      summaryRow: HermesMessage | null;
      /** The summary row is also a message of its own, written by its own step (its id is the summary id). */
      inline: boolean;
      copies: CopyRow[];
      /** Hermes rows (ids) archived by this compaction. */
      rowIds: number[];
    }
  | {
      kind: 'rewind';
      messageIds: string[];
      rowIds: number[];
      /**
       * `rewound`: Hermes took the rows back; `background-review`: Hermes strips them on read;
       * `carried_over`: a later row repeats the archived row (Hermes shows the message once, there);
       * `session-meta`: a gateway's transcript header (role `session_meta`), which every Hermes reader drops.
       */
      reason: 'rewound' | 'background-review' | 'carried_over' | 'session-meta';
      at: number | null;
    }
  | { kind: 'child'; childId: string; link: 'delegation' | 'branch' | 'reset'; at: number | null }
  | { kind: 'continued'; childId: string; summaryId: string; summaryRow: HermesMessage | null; at: number | null }
  | { kind: 'end'; endedAt: number; endReason: string | null };

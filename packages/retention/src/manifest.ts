import { jsonSafe } from '@session-ledger/core';
import type { Role } from '@session-ledger/events';
import type { Coverage } from './coverage/coverage.js';
import type { ExportFormat, ExportView, Lineage } from './types.js';
import { messageCountOf, type ExportContent } from './view/content.js';
import { contentDigest } from './view/digest.js';

export const MANIFEST_VERSION = 1;

/** A covered stream as the manifest states it (revision as a JSON number). */
export interface ManifestStream {
  stream: string;
  revision: number | string;
  chainHead: string | null;
}

/** What every export declares about itself: in YAML front matter, an HTML script block, or the first jsonl line. */
export interface Manifest {
  kind: 'manifest';
  tool: 'session-ledger';
  version: number;
  format: ExportFormat;
  view: ExportView;
  lineage: Lineage;
  /** true when `--only` left messages out: such an export can never authorise a deletion. */
  filtered: boolean;
  only: Role[] | null;
  /** The id asked for, and the root of its conversation. */
  requestedId: string;
  rootId: string;
  /** Every covered segment id, conversation by conversation, root to tip. */
  sessionIds: string[];
  conversations: Array<{ rootId: string; tipId: string; link: 'delegation' | null; parentId: string | null; segments: string[] }>;
  /** Each covered stream at the revision and chain head it was read at. */
  streams: ManifestStream[];
  messageCount: number;
  /** raw view: how many events. */
  eventCount?: number;
  /** `sha256:` of the canonical JSON of the exported view content. */
  digest: string;
  exportedAt: string;
}

export const buildManifest = (
  coverage: Coverage,
  content: ExportContent,
  options: { format: ExportFormat; view: ExportView; only: Role[] | null; now: Date },
): Manifest => {
  const manifest: Manifest = {
    kind: 'manifest',
    tool: 'session-ledger',
    version: MANIFEST_VERSION,
    format: options.format,
    view: options.view,
    lineage: coverage.lineage,
    filtered: options.only !== null,
    only: options.only,
    requestedId: coverage.requestedId,
    rootId: coverage.conversations[0]!.rootId,
    sessionIds: coverage.streams.map((stream) => stream.sessionId),
    conversations: coverage.conversations.map((conversation) => ({
      rootId: conversation.rootId,
      tipId: conversation.tipId,
      link: conversation.link,
      parentId: conversation.parentId,
      segments: conversation.segments.map((segment) => segment.sessionId),
    })),
    streams: coverage.streams.map(({ stream, revision, chainHead }) => ({ stream, revision: jsonSafe(revision) as number, chainHead })),
    messageCount: messageCountOf(content),
    digest: contentDigest(content),
    exportedAt: options.now.toISOString(),
  };
  if (content.view === 'raw') manifest.eventCount = content.events.length;
  return manifest;
};

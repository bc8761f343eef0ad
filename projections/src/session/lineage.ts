import type { ChildLink, Link, SessionRecord } from '@session-ledger/events';
import { chainEnds } from './chains.js';

/** One segment in the session graph. */
export interface LineageNode {
  sessionId: string;
  parentId: string | null;
  link: Link | null;
  startedAt: string;
  /** Compression child named by the segment's latest `session.continued` (may not be started yet). */
  continuedIn: string | null;
  children: Array<{ childId: string; link: ChildLink }>;
  /** The root of its logical conversation (parents followed through compression links only). */
  rootId: string;
  /** The conversation's tip (compression children followed while they are started). */
  tipId: string;
}

export interface LineageView {
  /** In the order the segments started. */
  nodes: LineageNode[];
}

type Draft = Omit<LineageNode, 'rootId' | 'tipId'>;

/** Accumulates the graph from session events in any order of segments (e.g. $all). */
export const lineageAccumulator = () => {
  const nodes = new Map<string, Draft>();
  const pendingChildren = new Map<string, Draft['children']>();
  const pendingContinued = new Map<string, string>();
  return {
    add(record: SessionRecord): void {
      const id = record.sessionId;
      if (record.type === 'session.started') {
        if (nodes.has(id)) return;
        const { parentId, link, startedAt } = record.data;
        nodes.set(id, { sessionId: id, parentId, link, startedAt, continuedIn: pendingContinued.get(id) ?? null, children: pendingChildren.get(id) ?? [] });
        return;
      }
      const node = nodes.get(id);
      if (record.type === 'session.continued') {
        // The latest continuation is in force (a later one supersedes a child that could not be started).
        if (node) node.continuedIn = record.data.childId;
        else pendingContinued.set(id, record.data.childId);
      } else if (record.type === 'session.continuation_withdrawn') {
        if (node?.continuedIn === record.data.childId) node.continuedIn = null;
        else if (!node && pendingContinued.get(id) === record.data.childId) pendingContinued.delete(id);
      } else if (record.type === 'session.child_linked') {
        const children = node ? node.children : pendingChildren.get(id) ?? [];
        if (!node) pendingChildren.set(id, children);
        if (!children.some((child) => child.childId === record.data.childId)) children.push({ childId: record.data.childId, link: record.data.link });
      }
    },
    finish(): LineageView {
      // A compression child belongs to its parent's conversation while the parent's continuation names it (not once withdrawn).
      const up = (id: string) => {
        const node = nodes.get(id)!;
        return node.link === 'compression' && node.parentId !== null && nodes.get(node.parentId)?.continuedIn === id ? node.parentId : null;
      };
      const down = (id: string) => {
        const child = nodes.get(id)!.continuedIn;
        return child !== null && nodes.get(child)?.parentId === id ? child : null;
      };
      const roots = chainEnds(nodes.keys(), up);
      const tips = chainEnds(nodes.keys(), down);
      return { nodes: [...nodes.values()].map((node) => ({ ...node, rootId: roots.get(node.sessionId)!, tipId: tips.get(node.sessionId)! })) };
    },
  };
};

export const foldLineage = (records: Iterable<SessionRecord>): LineageView => {
  const accumulator = lineageAccumulator();
  for (const record of records) accumulator.add(record);
  return accumulator.finish();
};

export const lineageIndex = (view: LineageView): Map<string, LineageNode> => new Map(view.nodes.map((node) => [node.sessionId, node]));

/**
 * The roots of every conversation delegated or branched from `rootId`'s conversation, transitively
 * (what a deletion must check for live leases). `rootId` itself is not included.
 */
export const descendantConversations = (view: LineageView, rootId: string): string[] => {
  const byRoot = new Map<string, LineageNode[]>();
  for (const node of view.nodes) {
    const group = byRoot.get(node.rootId);
    if (group) group.push(node);
    else byRoot.set(node.rootId, [node]);
  }
  const index = lineageIndex(view);
  const found: string[] = [];
  const seen = new Set([rootId]);
  const queue = [rootId];
  while (queue.length > 0) {
    for (const segment of byRoot.get(queue.shift()!) ?? []) {
      for (const { childId } of segment.children) {
        const child = index.get(childId);
        // A link whose child names another parent (the id was taken by another start) is no descendant.
        if (!child || child.parentId !== segment.sessionId || seen.has(child.rootId)) continue;
        seen.add(child.rootId);
        found.push(child.rootId);
        queue.push(child.rootId);
      }
    }
  }
  return found;
};

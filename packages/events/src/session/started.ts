import { z } from 'zod';
import { isoTime, jsonObject, link, openTurn, safeId } from './common.js';

/**
 * session.started v1: the first event of every segment. A root has no parent; a compression
 * child names its parent, the conversation's root, the summary that replaced the parent's
 * history, and the turn it carries over; a delegation or branch child is its own root.
 */
export const sessionStartedV1 = z
  .strictObject({
    sessionId: safeId,
    rootId: safeId,
    parentId: safeId.nullable(),
    link: link.nullable(),
    startedAt: isoTime,
    summary: z.string().optional(),
    summaryId: safeId.optional(),
    openTurn: openTurn.nullable().optional(),
    model: z.string().optional(),
    source: z.string().optional(),
    title: z.string().optional(),
    extra: jsonObject.optional(),
  })
  .refine((data) => (data.parentId === null) === (data.link === null), {
    message: 'parentId and link go together',
    path: ['link'],
  })
  .refine((data) => data.link === 'compression' || data.rootId === data.sessionId, {
    message: 'only a compression child has another root',
    path: ['rootId'],
  })
  .refine((data) => data.link !== 'compression' || (data.summary !== undefined && data.summaryId !== undefined), {
    message: 'a compression child carries summary and summaryId',
    path: ['summary'],
  });

export type SessionStarted = z.infer<typeof sessionStartedV1>;

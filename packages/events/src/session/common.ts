import { z } from 'zod';
import { SAFE_ID } from './ids.js';

export const safeId = z.string().regex(SAFE_ID, "letters, digits, '_', '-', '.' or ':' (1-200)");
export const isoTime = z.iso.datetime({ offset: true });
export const jsonObject = z.record(z.string(), z.json());

export const ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export type Role = (typeof ROLES)[number];
export const role = z.enum(ROLES);

export const LINKS = ['compression', 'delegation', 'branch', 'reset'] as const;
export type Link = (typeof LINKS)[number];
export const link = z.enum(LINKS);

/**
 * Links that open a separate logical conversation (reachable through lineage). `reset`: a new
 * conversation in the same thread (a chat's /new or /reset): the model starts afresh, while its
 * display shows the conversation it reset above its own messages (sessions' loadConversation).
 */
export const CHILD_LINKS = ['delegation', 'branch', 'reset'] as const;
export type ChildLink = (typeof CHILD_LINKS)[number];

export const TURN_OUTCOMES = ['completed', 'interrupted', 'failed'] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

export const tokenCounts = z.object({}).catchall(z.number().int().nonnegative());
export const toolCalls = z.array(jsonObject);

/** A turn that owned a segment when it was continued in a compression child. */
export const openTurn = z.strictObject({ turnId: safeId, owner: z.string().min(1), leaseExpiresAt: isoTime });
export type OpenTurn = z.infer<typeof openTurn>;

import { z } from 'zod';
import { TURN_OUTCOMES, isoTime, safeId } from './common.js';

export const turnStartedV1 = z.strictObject({
  turnId: safeId,
  owner: z.string().min(1),
  leaseExpiresAt: isoTime,
  startedAt: isoTime,
});

export const turnLeaseRenewedV1 = z.strictObject({ turnId: safeId, leaseExpiresAt: isoTime, renewedAt: isoTime });

export const turnEndedV1 = z.strictObject({ turnId: safeId, outcome: z.enum(TURN_OUTCOMES), endedAt: isoTime });

export type TurnStarted = z.infer<typeof turnStartedV1>;
export type TurnLeaseRenewed = z.infer<typeof turnLeaseRenewedV1>;
export type TurnEnded = z.infer<typeof turnEndedV1>;

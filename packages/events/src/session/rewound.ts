import { z } from 'zod';
import { isoTime, safeId } from './common.js';

/**
 * history.rewound v1: messages taken back (rewind, undo, regenerate) or superseded by a copy. They
 * leave the active and display views; the raw view keeps them. `reason` is informational
 * (e.g. `rewound`, `carried_over`, `replaced`: rows an imported harness deleted and wrote again).
 */
export const historyRewoundV1 = z.strictObject({
  messageIds: z.array(safeId).min(1),
  reason: z.string().min(1).optional(),
  rewoundAt: isoTime,
});

export type HistoryRewound = z.infer<typeof historyRewoundV1>;

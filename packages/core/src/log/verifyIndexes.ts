import type { BreakKind } from './breaks.js';
import type { EventLog } from './port.js';

type Report = (kind: BreakKind, stream: string | null, revision: bigint | null, position: bigint | null, leaf: number | null, what: string) => void;

/**
 * Verify's `indexes` part: the store's own indexes against its events, each finding an `index` break
 * (those past `max` counted through `unlisted`). False when the store keeps no such check.
 */
export const checkIndexes = async (log: EventLog, max: number, report: Report, unlisted: (count: number) => void): Promise<boolean> => {
  if (!log.indexes) return false;
  const { findings, total } = await log.indexes(max);
  for (const finding of findings) report('index', finding.stream, finding.revision, finding.position, null, finding.message);
  if (total > findings.length) unlisted(total - findings.length);
  return true;
};

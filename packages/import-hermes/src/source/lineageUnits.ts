import { orderSessions, type Orderable } from './orderSessions.js';

/**
 * Splits sessions into lineage units: the sessions joined by `parent_session_id` (a root with its
 * compression segments, branches, delegates, resets and any other children). Every rule of the import
 * and of Hermes' reads (continuation choice, resume walk, parent chain) looks only along these
 * links, so a unit can be read, planned, imported and verified on its own. Units come in the order
 * of their first session in the whole file's order (parents first, then by start); each unit's
 * sessions in that order too.
 */
export const lineageUnits = <S extends Orderable>(sessions: S[]): S[][] => {
  const ids = new Set(sessions.map((s) => s.id));
  const up = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (up.has(root)) root = up.get(root)!;
    for (let at = id; at !== root; ) {
      const next = up.get(at)!;
      up.set(at, root);
      at = next;
    }
    return root;
  };
  for (const s of sessions) {
    if (s.parentSessionId === null || !ids.has(s.parentSessionId)) continue;
    const [a, b] = [find(s.id), find(s.parentSessionId)];
    if (a !== b) up.set(a, b);
  }
  const units = new Map<string, S[]>();
  for (const s of orderSessions(sessions)) {
    const key = find(s.id);
    const unit = units.get(key);
    if (unit) unit.push(s);
    else units.set(key, [s]);
  }
  return [...units.values()];
};

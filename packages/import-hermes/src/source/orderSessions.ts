/** What ordering needs of a session. */
export interface Orderable {
  id: string;
  startedAt: number | null;
  parentSessionId: string | null;
}

/** started_at order (ties by id), with every parent placed before its children. */
export const orderSessions = <S extends Orderable>(sessions: S[]): S[] => {
  const byTime = [...sessions].sort(
    (a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const byId = new Map(byTime.map((s) => [s.id, s]));
  const placed = new Set<string>();
  const out: S[] = [];
  const place = (session: S, trail: Set<string>) => {
    if (placed.has(session.id) || trail.has(session.id)) return;
    trail.add(session.id);
    const parent = session.parentSessionId ? byId.get(session.parentSessionId) : undefined;
    if (parent) place(parent, trail);
    placed.add(session.id);
    out.push(session);
  };
  for (const session of byTime) place(session, new Set());
  return out;
};

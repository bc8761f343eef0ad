import type { HermesMessage, HermesSnapshot } from '../model.js';
import type { HermesSource } from './hermesSource.js';
import { lineageUnits } from './lineageUnits.js';

/** A snapshot already in memory (readSnapshot, tests) served unit by unit like a streamed file. */
export const snapshotSource = (snapshot: HermesSnapshot): HermesSource => {
  const ids = new Set(snapshot.sessions.map((s) => s.id));
  return {
    path: snapshot.path,
    schema: snapshot.schema,
    sessionCount: snapshot.sessions.length,
    messageCount: snapshot.messageCount,
    sessionIds: () => snapshot.sessions.map((s) => s.id),
    orphans: () => [...snapshot.messages].filter(([id]) => !ids.has(id)).map(([sessionId, rows]) => ({ sessionId, rows: rows.length })),
    *units() {
      for (const sessions of lineageUnits(snapshot.sessions)) {
        const messages = new Map<string, HermesMessage[]>();
        let messageCount = 0;
        for (const s of sessions) {
          const rows = snapshot.messages.get(s.id);
          if (rows && !messages.has(s.id)) messages.set(s.id, rows), (messageCount += rows.length);
        }
        yield { path: snapshot.path, schema: snapshot.schema, sessions, messages, messageCount };
      }
    },
  };
};

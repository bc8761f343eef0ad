/** Session stream names: one stream `session-<id>` per segment. Stores treat names as opaque. */
export const SESSION_PREFIX = 'session-';

export const sessionStream = (sessionId: string): string => `${SESSION_PREFIX}${sessionId}`;

export const sessionIdOf = (stream: string): string | null =>
  stream.startsWith(SESSION_PREFIX) ? stream.slice(SESSION_PREFIX.length) : null;

/** Stream names. Stores treat them as opaque; the domain packages build them here. */
export const SESSION_PREFIX = 'session-';
export const MEMORY_PREFIX = 'memory-';
export const AUDIT_STREAM = 'ledger-audit';

export const sessionStream = (sessionId: string): string => `${SESSION_PREFIX}${sessionId}`;
export const memoryStream = (profile: string): string => `${MEMORY_PREFIX}${profile}`;

export const sessionIdOf = (stream: string): string | null =>
  stream.startsWith(SESSION_PREFIX) ? stream.slice(SESSION_PREFIX.length) : null;

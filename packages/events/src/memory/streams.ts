/** Memory stream names: one stream `memory-<profile>` per profile. Stores treat names as opaque. */
export const MEMORY_PREFIX = 'memory-';

export const memoryStream = (profile: string): string => `${MEMORY_PREFIX}${profile}`;

import { createHash, randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);

export const newId = (): string => randomUUID();

/**
 * A name-based UUID (version 5 layout over SHA-256): the same parts always give the same id,
 * so an append retried after a timeout carries the ids it carried the first time.
 */
export const deterministicId = (...parts: Array<string | number | bigint>): string => {
  const hash = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

import { randomUUID } from 'node:crypto';
import { sha256Hex } from './canonical.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);

export const newId = (): string => randomUUID();

/**
 * A name-based UUID (version 5 layout over SHA-256): the same parts always give the same id,
 * so an append retried after a timeout carries the ids it carried the first time.
 */
export const deterministicId = (...parts: Array<string | number | bigint>): string => {
  // The same bytes as setting hash[6] = (hash[6] & 0x0f) | 0x50 and hash[8] = (hash[8] & 0x3f) | 0x80
  // on the digest, done on its hex form: one one-shot hash and no Buffer per id (ids are made per event).
  const hex = sha256Hex(parts.map(String).join('\u0000'));
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

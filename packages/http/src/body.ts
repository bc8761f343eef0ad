import type { IncomingMessage } from 'node:http';
import { invalidInput } from '@session-ledger/core';

const LIMIT = 16 * 1024 * 1024;

/** Reads a JSON body (at most 16 MiB); malformed JSON or a wrong content type is invalid_input (400). */
export const readJsonBody = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > LIMIT) throw invalidInput('Request body is larger than 16 MiB');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return null;
  const type = req.headers['content-type'] ?? 'application/json';
  if (!type.includes('json')) throw invalidInput(`Expected a JSON body, got ${type}`);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw invalidInput(`Request body is not valid JSON: ${(error as Error).message}`);
  }
};

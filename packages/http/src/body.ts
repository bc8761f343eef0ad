import type { IncomingMessage } from 'node:http';
import { illFormedMessage, illFormedPath, inexactIntegerMessage, invalidInput, MAX_JSON_DEPTH, repeatedKeyMessage, repeatsKeys, scanJsonText } from '@session-ledger/core';
import { httpProblem } from './problem.js';

export const BODY_LIMIT = 16 * 1024 * 1024;

const tooLarge = () => httpProblem(413, 'content_too_large', `The request body is larger than ${BODY_LIMIT / 1024 / 1024} MiB`);

/**
 * The body's bytes, at most BODY_LIMIT. Past the limit the rest is read and dropped (not kept), so
 * that the client, still sending, gets to read the 413 instead of a broken pipe.
 */
const readBytes = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= BODY_LIMIT) return void chunks.push(chunk);
      over = true;
      chunks.length = 0;
      reject(tooLarge());
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
  });

/** `application/json`, with at most a UTF-8 charset; anything else (text/plain, forms) is 415. */
const checkContentType = (header: string | undefined): void => {
  // What clients send almost always, accepted without splitting it (benchmark row "group commit: HTTP appends").
  if (header === 'application/json' || header === 'application/json; charset=utf-8') return;
  const [type, ...params] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  // A UTF-8 charset at most: another parameter, or a second charset, is not what the body is read as.
  const utf8 = params.length === 0 || (params.length === 1 && /^charset="?utf-?8"?$/.test(params[0]!));
  if (type !== 'application/json' || !utf8) {
    throw httpProblem(415, 'unsupported_media_type', `A request body must be sent as Content-Type: application/json, not ${JSON.stringify(header ?? 'none')}`, {
      'accept-post': 'application/json',
    });
  }
};

/** One decoder for every body: `decode` without `stream` starts afresh each call. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the request carries a body (a length other than 0, or a transfer coding). */
export const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Reads a JSON body: absent (no bytes) is undefined, so that a body of JSON `null` is told apart and refused by the route's schema; a body needs Content-Type application/json (415), at most 16 MiB
 * (413), valid UTF-8 and JSON no deeper than MAX_JSON_DEPTH whose strings are well-formed UTF-16 (400).
 */
// `beforeRead` runs once every check of the headers has passed, right before the bytes are read (100 Continue).
export const readJsonBody = async (req: IncomingMessage, beforeRead?: () => void): Promise<unknown> => {
  if (!hasBody(req)) {
    if (req.headers['content-type'] !== undefined) checkContentType(req.headers['content-type']);
    return undefined;
  }
  checkContentType(req.headers['content-type']);
  // A coded body (gzip, br) would be read as its compressed bytes: refused by its headers (RFC 9110 §8.4.1).
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    throw httpProblem(415, 'unsupported_media_type', `A request body must not be sent with Content-Encoding ${JSON.stringify(coding)}: send it uncompressed`, { 'accept-encoding': 'identity' });
  }
  // A transfer coding other than chunked ("gzip, chunked") was read as its coded bytes, or its plain
  // bytes stored although declared coded (outside test, session 27): not understood, 501 (RFC 9112 §6.1).
  const transfer = req.headers['transfer-encoding'];
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
    throw httpProblem(501, 'not_implemented', `A request body must not be sent with Transfer-Encoding ${JSON.stringify(transfer)}: only chunked is read`);
  }
  if (Number(req.headers['content-length'] ?? 0) > BODY_LIMIT) throw tooLarge();
  beforeRead?.();
  const bytes = await readBytes(req);
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw invalidInput('The request body is not valid UTF-8');
  }
  // Deeper JSON is refused before it is parsed (core's jsonDepth.ts, shared with the CLI and the importers).
  // A whole number JSON.parse would change (past 2^53) is refused too, never stored changed: one pass for both.
  const scan = scanJsonText(text, MAX_JSON_DEPTH);
  if (scan.deeper) throw invalidInput(`The request body nests JSON deeper than ${MAX_JSON_DEPTH} levels`);
  if (scan.inexact !== undefined) throw invalidInput(inexactIntegerMessage('The request body', scan.inexact));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalidInput(`The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (repeatsKeys(scan, body)) throw invalidInput(repeatedKeyMessage('The request body'));
  // Valid UTF-8 can still escape a lone surrogate ("\ud800"): refused for every route, before any handler runs.
  const illFormed = illFormedPath(body, '$');
  if (illFormed !== null) throw invalidInput(illFormedMessage(`the request body (at ${illFormed})`, illFormed), illFormed);
  return body;
};

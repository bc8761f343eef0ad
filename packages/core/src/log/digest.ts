import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { invalidInput } from '../errors.js';
import { isRealDay } from '../calendar.js';
import { MAX_JSON_DEPTH, scanJsonText } from '../jsonDepth.js';
import { repeatedKeyMessage, repeatsKeys } from '../jsonKeys.js';
import type { LogDigest } from './port.js';

/** A digest an auditor keeps: the log's size and root at a time, optionally signed (Ed25519). */
export interface SignedDigest extends LogDigest {
  at: string;
  signature?: { algorithm: 'ed25519'; value: string };
}

/** The signed bytes: the digest's three fields as one JSON object, keys sorted, no white space. */
export const digestMessage = (digest: SignedDigest): Buffer =>
  Buffer.from(JSON.stringify({ at: digest.at, root: digest.root, size: digest.size }), 'utf8');

const keyError = (what: string, error: unknown) => invalidInput(`Not a usable Ed25519 ${what} key (PEM): ${(error as Error).message}`, 'key');

export const signDigest = (digest: SignedDigest, privateKeyPem: string): SignedDigest => {
  let key;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch (error) {
    throw keyError('private', error);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw invalidInput(`The key is ${key.asymmetricKeyType}, not Ed25519`, 'key');
  const { signature: _old, ...fields } = digest;
  return { ...fields, signature: { algorithm: 'ed25519', value: sign(null, digestMessage(digest), key).toString('base64') } };
};

/** Whether the digest carries a valid signature by `publicKeyPem`; invalid_input for a key that is none. */
export const digestSignedBy = (digest: SignedDigest, publicKeyPem: string): boolean => {
  let key;
  try {
    key = createPublicKey(publicKeyPem);
  } catch (error) {
    throw keyError('public', error);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw invalidInput(`The key is ${key.asymmetricKeyType}, not Ed25519`, 'key');
  if (!digest.signature) return false;
  return verify(null, digestMessage(digest), key, Buffer.from(digest.signature.value, 'base64'));
};

const HEX64 = /^[0-9a-f]{64}$/;

/** An RFC 3339 date-time (`audit digest` writes `2026-12-04T03:00:00.000Z`; an offset is a time too). */
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Whether `text` is an RFC 3339 date-time of a day that exists (not 2026-02-31). */
const isTime = (text: string): boolean => {
  const parts = TIME.exec(text);
  if (!parts) return false;
  return isRealDay(Number(parts[1]), Number(parts[2]), Number(parts[3]));
};

/** A digest read from JSON text (a file, a query parameter): invalid_input naming what is wrong. */
export const parseDigest = (text: string): SignedDigest => {
  // Before the parse: a value nested this deep is refused as the digest's fault, never read as the ledger's.
  const scan = scanJsonText(text);
  if (scan.deeper) throw invalidInput(`The digest nests JSON deeper than ${MAX_JSON_DEPTH} levels`, 'digest');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidInput(`The digest is not JSON: ${(error as Error).message}`, 'digest');
  }
  // Two sizes or two roots in one digest: which one was signed, which one is checked? Refused, as every JSON input.
  if (repeatsKeys(scan, value)) throw invalidInput(repeatedKeyMessage('The digest'), 'digest');
  const record = value as Record<string, unknown> | null;
  if (!record || typeof record !== 'object' || Array.isArray(record)) throw invalidInput('The digest is not a JSON object', 'digest');
  const { size, root, at, signature } = record;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw invalidInput('The digest has no size (a whole number >= 0)', 'digest');
  if (typeof root !== 'string' || !HEX64.test(root)) throw invalidInput('The digest has no root (64 lowercase hex digits)', 'digest');
  // A digest is where an auditor keeps when the log had this size: one whose `at` is no time proves nothing of when.
  if (typeof at !== 'string' || !isTime(at)) throw invalidInput('The digest has no at (an RFC 3339 time, as audit digest writes it)', 'digest');
  if (signature === undefined) return { size, root, at };
  const sig = signature as Record<string, unknown> | null;
  if (!sig || sig.algorithm !== 'ed25519' || typeof sig.value !== 'string') throw invalidInput('The digest signature is not { algorithm: "ed25519", value: base64 }', 'digest');
  return { size, root, at, signature: { algorithm: 'ed25519', value: sig.value } };
};

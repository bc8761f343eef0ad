import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, isStackOverflow, ledgerError, type LedgerError, type RecordedEvent } from '@session-ledger/core';
import { invalidEvent } from './session/issues.js';
import type { z } from 'zod';
import type { EventSchemas, SchemaVersion } from './session/registry.js';
import { SCHEMA_VERSION_KEY } from './session/types.js';

/** Checks data against one schema version: its quick check when that applies, else the schema itself. */
export const parseVersion = (step: SchemaVersion, data: unknown): { data: unknown } | { error: z.ZodError } => {
  const quick = step.quick?.(data);
  if (quick !== undefined) return { data: quick };
  const parsed = step.schema.safeParse(data);
  return parsed.success ? { data: parsed.data } : { error: parsed.error };
};

const versionOf = (event: RecordedEvent): number | LedgerError => {
  const value = event.metadata[SCHEMA_VERSION_KEY];
  if (value === undefined) return 1;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  return invalidInput(`Bad ${SCHEMA_VERSION_KEY} on ${event.streamName}@${event.revision}: ${JSON.stringify(value)}`, SCHEMA_VERSION_KEY);
};

/**
 * Validation on read, shared by every event family: checks the stored data against the schema of
 * its stored version, then lifts it through each upcaster to the current version. A newer version
 * than this reader knows is `unsupported_version`; anything malformed is `invalid_input`.
 * (Plain control flow inside: this runs once per stored event on every read.)
 */
export const decodeVersioned = (
  event: RecordedEvent,
  schemas: EventSchemas,
  /** How errors name the event; default `TYPE event at STREAM@REVISION`. */
  name?: string,
): E.Either<LedgerError, { data: unknown; version: number }> => {
  const where = () => name ?? `${event.type} event at ${event.streamName}@${event.revision}`;
  const version = versionOf(event);
  if (typeof version !== 'number') return E.left(version);
  if (version > schemas.current) {
    return E.left(
      ledgerError('unsupported_version', `${where()} has schema version ${version}; this reader knows up to ${schemas.current}`, {
        eventType: event.type,
        version,
        supported: schemas.current,
      }),
    );
  }
  let data: unknown = event.data;
  for (let v = version; v <= schemas.current; v += 1) {
    const step = schemas.versions[v - 1]!;
    let parsed: ReturnType<typeof parseVersion>;
    try {
      parsed = parseVersion(step, data);
    } catch (error) {
      // Nested past what the schema can walk (only a file edited by hand holds it: every surface refuses
      // more than 100 levels): malformed, like any other value the schema refuses, never a crash of the reader.
      if (!isStackOverflow(error)) throw error;
      return E.left(invalidInput(`${where()} (v${v}) holds a value nested too deep to check`, 'data'));
    }
    if ('error' in parsed) return E.left(invalidEvent(`${where()} (v${v})`, parsed.error));
    data = step.upcast ? step.upcast(parsed.data as never) : parsed.data;
  }
  return E.right({ data, version });
};

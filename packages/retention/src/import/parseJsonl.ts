import { digestOf, illFormedPath, isLedgerError, isUuid, ledgerError, MAX_JSON_DEPTH, scanJsonText, verifyStreamChain, type JsonObject, type RecordedEvent } from '@session-ledger/core';
import { checkRestoredEvent, SESSION_PREFIX } from '@session-ledger/events';
import { z } from 'zod';
import type { Manifest } from '../manifest.js';
import type { ExportedEvent } from '../view/content.js';

const corrupt = (path: string, why: string) =>
  ledgerError('import_source_invalid', `Cannot import ${path}: ${why}`, { path, reason: 'corrupt' });

const eventLine = z.object({
  stream: z.string().startsWith(SESSION_PREFIX),
  id: z.string().refine(isUuid, 'not a UUID'),
  type: z.string().min(1),
  revision: z.number().int().nonnegative(),
  position: z.union([z.number(), z.string()]),
  data: z.json(),
  metadata: z.record(z.string(), z.json()),
  created: z.string(),
});

export interface ParsedExport {
  manifest: Manifest;
  /** Stream by stream, each in revision order from 0, as the store must hold them. */
  streams: Map<string, RecordedEvent[]>;
  events: number;
}

/**
 * How deep an event line may nest: the line wraps the event's data (one level), whose message fields
 * the CLI takes as JSON values MAX_JSON_DEPTH deep each (one more: `--tool-calls`). Until session 26
 * lines were held to MAX_JSON_DEPTH, and such a message exported but would not import (outside test).
 */
const EVENT_LINE_DEPTH = MAX_JSON_DEPTH + 2;

const parseLine = (path: string, line: string, number: number, depth = MAX_JSON_DEPTH): unknown => {
  const scan = scanJsonText(line, depth);
  if (scan.deeper) throw corrupt(path, `line ${number} nests JSON deeper than ${depth} levels`);
  // An export writes every number with its own digits (JSON.stringify): one JSON.parse would change was not written by one.
  if (scan.inexact !== undefined) throw corrupt(path, `line ${number} holds the number ${scan.inexact.slice(0, 40)}, which JSON reads as another`);
  try {
    return JSON.parse(line);
  } catch {
    throw corrupt(path, `line ${number} is not JSON`);
  }
};

const checkStream = (path: string, name: string, events: RecordedEvent[], manifest: Manifest) => {
  events.forEach((event, index) => {
    if (event.revision !== BigInt(index)) throw corrupt(path, `${name} does not hold revisions 0..${events.length - 1} in order (a stream can only be restored whole)`);
  });
  const broken = verifyStreamChain(events);
  if (broken) throw corrupt(path, `the hash chain of ${name} breaks at revision ${broken.revision} (${broken.reason})`);
  const declared = manifest.streams.find((stream) => stream.stream === name);
  const last = events[events.length - 1]!;
  if (!declared || String(declared.revision) !== last.revision.toString() || declared.chainHead !== (last.metadata.hash ?? null)) {
    throw corrupt(path, `${name} does not end where the manifest says`);
  }
};

/**
 * What an import refuses (its events reach the store directly, to keep their ids, revisions and
 * hashes: checkRestoredEvent): a name with a control character, a `$` stream or type, a session
 * stream whose id is not one, an event its schema does not decode, a segment that does not begin
 * with its own session.started.
 */
const checkLikeAnAppend = (path: string, line: number, event: z.infer<typeof eventLine>): void => {
  try {
    checkRestoredEvent({ stream: event.stream, id: event.id, type: event.type, data: event.data, metadata: event.metadata as JsonObject, expectedRevision: event.revision === 0 ? 'no_stream' : BigInt(event.revision - 1) });
  } catch (error) {
    if (!isLedgerError(error, 'invalid_input')) throw error;
    throw corrupt(path, `line ${line} (${event.stream}@${event.revision}): ${error.message.replace(/^Refused raw append to [^:]*: /, '')}; nothing was imported`);
  }
};

/**
 * Reads a jsonl export: the manifest line, then the events. Refuses (import_source_invalid) a file
 * whose events do not hash to the manifest digest, whose chains break, or whose streams are not whole,
 * or holding an event no append surface would store (checkLikeAnAppend, a repeated id, a line
 * deeper than EVENT_LINE_DEPTH).
 */
/** ignoreBOM: a byte-order mark stays in its line (and fails its parse), as the export never writes one. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file's lines, each decoded on its own: an export may be larger than any string V8 makes
 * (render/jsonl.ts), so the file is never one. Invalid UTF-8 is corrupt, never read as U+FFFD.
 */
const linesOf = (path: string, bytes: Uint8Array): string[] => {
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    try {
      lines.push(UTF8.decode(bytes.subarray(start, end)));
    } catch {
      throw corrupt(path, `line ${lines.length + 1} is not UTF-8`);
    }
    start = end + 1;
  }
  return lines;
};

export const parseJsonlExport = (path: string, file: string | Uint8Array): ParsedExport => {
  const lines = (typeof file === 'string' ? file.split('\n') : linesOf(path, file)).filter((line) => line.trim() !== '');
  if (lines.length === 0) throw corrupt(path, 'the file is empty');
  const manifest = parseLine(path, lines[0]!, 1) as Manifest;
  if (manifest?.kind !== 'manifest' || manifest.format !== 'jsonl' || manifest.view !== 'raw' || !Array.isArray(manifest.streams)) {
    throw corrupt(path, 'the first line is not the manifest of a jsonl (raw) export');
  }
  const exported: ExportedEvent[] = [];
  const streams = new Map<string, RecordedEvent[]>();
  const ids = new Map<string, Set<string>>();
  lines.slice(1).forEach((line, index) => {
    const raw = parseLine(path, line, index + 2, EVENT_LINE_DEPTH);
    const parsed = eventLine.safeParse(raw);
    if (!parsed.success) throw corrupt(path, `line ${index + 2} is not an event (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
    const event = parsed.data;
    // Checked for every line before anything is written: a store would refuse it mid-import, after other
    // streams. On the line as parsed, before zod: its JSON drops a "__proto__" key.
    const illFormed = illFormedPath(raw, 'event');
    if (illFormed !== null) {
      const what = illFormed.endsWith('.__proto__') ? 'a key named "__proto__", which JavaScript readers drop,' : 'a string that is not well-formed UTF-16 (a lone surrogate)';
      throw corrupt(path, `line ${index + 2} (${event.stream}@${event.revision}) holds ${what} at ${illFormed}; nothing was imported`);
    }
    checkLikeAnAppend(path, index + 2, event);
    const seen = ids.get(event.stream) ?? new Set<string>();
    if (seen.has(event.id)) throw corrupt(path, `line ${index + 2} (${event.stream}@${event.revision}) repeats the event id ${event.id}; nothing was imported`);
    ids.set(event.stream, seen.add(event.id));
    exported.push(event as ExportedEvent);
    const recorded: RecordedEvent = {
      streamName: event.stream,
      id: event.id,
      type: event.type,
      revision: BigInt(event.revision),
      position: 0n,
      data: event.data,
      metadata: event.metadata as JsonObject,
      created: event.created,
    };
    const list = streams.get(event.stream);
    if (list) list.push(recorded);
    else streams.set(event.stream, [recorded]);
  });
  if (digestOf({ view: 'raw', events: exported }) !== manifest.digest) throw corrupt(path, 'its events do not match the manifest digest');
  if (streams.size !== manifest.streams.length) throw corrupt(path, 'the manifest and the events name different streams');
  for (const [name, events] of streams) checkStream(path, name, events, manifest);
  return { manifest, streams, events: exported.length };
};

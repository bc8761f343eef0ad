import type { Command } from 'commander';
import { eventToJson, invalidInput, newId, toJson, type JsonObject, type RecordedEvent } from '@session-ledger/core';
import { appendRaw, checkRawAppend } from '@session-ledger/events';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { emit, field, note } from '../output.js';
import { parseBigIntOption, parseCountOption, parseExpectedOption, parseJsonOption } from '../parse.js';
import { followAll } from './followAll.js';

/** `events read` in plain text: revision, type, data as one-line JSON; tab-separated. */
const line = (event: RecordedEvent) => `${event.revision}\t${field(event.type)}\t${JSON.stringify(event.data)}`;

/** `events`: the raw stream API of the port, for scripts and debugging. */
export const registerEvents = (program: Command): void => {
  const events = program.command('events').description('append and read raw events');

  action(
    events
      .command('append <stream>')
      .description('append one event through the hash-chained ledger (not to session-, memory- or ledger- streams: use the sessions, turns, messages and memory commands)')
      .requiredOption('--type <type>', 'event type')
      .requiredOption('--data <json>', 'event data as JSON')
      .option('--metadata <json>', 'event metadata as JSON object')
      .option('--id <uuid>', 'event id (default: a new UUID; reuse it to retry idempotently)')
      .option('--expected-revision <r>', 'any, no_stream, stream_exists or a revision number', 'any'),
    async (context, stream: string, options: { type: string; data: string; metadata?: string; id?: string; expectedRevision: string }) => {
      const data = parseJsonOption('data', options.data);
      const metadata = options.metadata === undefined ? undefined : parseJsonOption('metadata', options.metadata);
      if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) {
        throw invalidInput(`--metadata must be a JSON object, not ${metadata === null ? 'null' : Array.isArray(metadata) ? 'an array' : `a ${typeof metadata}`}`, 'metadata');
      }
      const append = { stream, id: options.id ?? newId(), type: options.type, data, metadata: metadata as JsonObject | undefined };
      const expectedRevision = parseExpectedOption(options.expectedRevision);
      checkRawAppend({ ...append, expectedRevision }); // before the store is opened: a refused append touches nothing
      const result = await withLedger(context, { write: true }, (ledger) => appendRaw(ledger, { ...append, expectedRevision }));
      emit(context.io, context.json, { stream, ...result }, () => String(result.nextExpectedRevision));
      // A retry of a stored append writes nothing: the note says so instead of "appended".
      note(context.io, context.json, `${result.written === false ? 'already stored:' : 'appended to'} ${stream} at revision ${result.nextExpectedRevision} (position ${result.position})`);
    },
  );

  action(
    events
      .command('read <stream>')
      .description('read one stream')
      .option('--backwards', 'newest first')
      .option('--from <revision>', 'inclusive start revision')
      .option('--max <count>', 'at most this many events'),
    async (context, stream: string, options: { backwards?: boolean; from?: string; max?: string }) => {
      const read = await withLedger(context, { write: false }, (_ledger, store) =>
        store.readStream(stream, {
          direction: options.backwards ? 'backwards' : 'forwards',
          fromRevision: options.from === undefined ? undefined : parseBigIntOption('from', options.from),
          maxCount: options.max === undefined ? undefined : parseCountOption('max', options.max),
        }),
      );
      emit(context.io, context.json, read.map(eventToJson), () => read.map(line).join('\n'));
    },
  );

  action(
    events
      .command('all')
      .description('every event in commit order, as JSON Lines (one event a line)')
      .option('--from <position>', 'inclusive commit position')
      .option('--follow', 'keep running and print new events as they are committed'),
    async (context, options: { from?: string; follow?: boolean }) => {
      const from = options.from === undefined ? undefined : parseBigIntOption('from', options.from);
      await withLedger(context, { write: false }, async (_ledger, store) => {
        if (options.follow) return followAll(store, from, (event) => context.io.out(toJson(eventToJson(event))));
        let cursor: bigint | 'start' = from ?? 'start';
        for (;;) {
          const page = await store.readAll({ fromPosition: cursor, maxCount: 1000 });
          for (const event of page) context.io.out(toJson(eventToJson(event)));
          if (page.length < 1000) return;
          cursor = page[page.length - 1]!.position + 1n;
        }
      });
    },
  );
};

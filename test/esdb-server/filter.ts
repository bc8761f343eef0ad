import type { RecordedEvent } from '@session-ledger/core';
import { streams, type StreamsPb } from './pb.js';
import { invalidArgument } from './rpcErrors.js';

export interface ServerFilter {
  matches(event: RecordedEvent): boolean;
  /** Considered events between two checkpoints: the window (max, or 32 by default) times the multiplier. */
  checkpointInterval: number;
}

/** The default search window of a filtered read on the server. */
export const DEFAULT_WINDOW = 32;

/** A stream-name or event-type filter: a regular expression, or a list of prefixes. */
export const serverFilterOf = (options: StreamsPb.ReadReq.Options.FilterOptions): ServerFilter => {
  const Case = streams.ReadReq.Options.FilterOptions.FilterCase;
  const byStream = options.getFilterCase() === Case.STREAM_IDENTIFIER;
  const expression = byStream ? options.getStreamIdentifier() : options.getEventType();
  if (!expression) throw invalidArgument('A filter needs a stream name or event type expression');
  const regex = expression.getRegex();
  const prefixes = expression.getPrefixList();
  let test: (text: string) => boolean;
  if (regex) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(regex);
    } catch {
      throw invalidArgument(`Not a regular expression: ${regex}`);
    }
    test = (text) => pattern.test(text);
  } else test = (text) => prefixes.some((prefix) => text.startsWith(prefix));
  const window = options.hasMax() ? options.getMax() : DEFAULT_WINDOW;
  return {
    matches: (event) => test(byStream ? event.streamName : event.type),
    checkpointInterval: Math.max(1, window) * Math.max(1, options.getCheckpointintervalmultiplier()),
  };
};

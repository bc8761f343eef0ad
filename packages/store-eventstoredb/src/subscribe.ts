import {
  END,
  START,
  eventTypeFilter,
  streamNameFilter,
  type EventStoreDBClient,
  type Filter,
  type Position,
} from '@eventstore/db-client';
import { matchesFilter, type EventFilter, type SubscribeToAllOptions, type SubscribeToStreamOptions, type Subscription } from '@session-ledger/core';
import { bridgeSubscription, type ClientSubscription } from './bridge.js';
import { CHECKPOINT_PREFIX, isHidden } from './hidden.js';
import { toClientPosition } from './positions.js';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The server-side filter for a subscription to $all. It is always set, because only filtered
 * subscriptions receive checkpoints (so a durable subscriber moves past long runs of events it
 * does not want). Stream prefixes, else exact event types, else "no system or checkpoint stream";
 * whatever the server cannot express is filtered again on this side.
 */
export const serverFilter = (filter: EventFilter | undefined, checkpointReached: (position: Position) => void): Filter => {
  const reached = (_subscription: unknown, position: Position) => checkpointReached(position);
  const prefixes = filter?.streamNamePrefixes ?? [];
  const types = filter?.eventTypes ?? [];
  if (prefixes.length > 0) return streamNameFilter({ prefixes, checkpointReached: reached });
  if (types.length > 0) return eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$`, checkpointReached: reached });
  return streamNameFilter({ regex: `^(?!\\$|${escapeRegex(CHECKPOINT_PREFIX)})`, checkpointReached: reached });
};

export const subscribeToAll = (client: EventStoreDBClient, options: SubscribeToAllOptions = {}): Subscription => {
  const from = options.fromPosition ?? 'start';
  return bridgeSubscription(
    (onCheckpoint) =>
      client.subscribeToAll({
        fromPosition: from === 'start' ? START : from === 'end' ? END : toClientPosition(from),
        filter: serverFilter(options.filter, onCheckpoint),
      }) as unknown as ClientSubscription,
    {
      keyOf: (event) => event.position,
      accept: (event) => !isHidden(event) && matchesFilter(options.filter, event),
      initialKey: typeof from === 'bigint' ? from : null,
      context: {},
    },
  );
};

export const subscribeToStream = (client: EventStoreDBClient, stream: string, options: SubscribeToStreamOptions = {}): Subscription => {
  const from = options.fromRevision ?? 'start';
  return bridgeSubscription(
    () =>
      client.subscribeToStream(stream, {
        fromRevision: from === 'start' ? START : from === 'end' ? END : from,
      }) as unknown as ClientSubscription,
    {
      keyOf: (event) => event.revision,
      accept: () => true,
      initialKey: typeof from === 'bigint' ? from : null,
      context: { stream },
    },
  );
};

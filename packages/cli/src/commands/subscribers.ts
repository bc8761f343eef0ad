import type { Command } from 'commander';
import { readSubscriberStatus, readSubscriberStatuses, resumeSubscribers, type SubscriberStatus } from '@session-ledger/core';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { emit } from '../output.js';

const statusLine = (status: SubscriberStatus): string => {
  const failed = status.failed;
  const where = failed ? ` at ${failed.stream}@${failed.revision} (event ${failed.eventId}${failed.eventType ? `, ${failed.eventType}` : ''}, ${failed.attempts} attempts)` : '';
  const parked = status.state === 'parked' ? `: ${status.reason ?? ''}${where}` : '';
  return `${status.name}\t${status.state}${parked}\tcheckpoint ${status.checkpoint ?? '-'}`;
};

/**
 * `subscribers`: the durable subscribers (`startDurableSubscriber`) registered in the store. A parked
 * one waits on the event it failed on; `resume` lets it deliver that event again, then the rest.
 * (Memory providers have their own book: `memory providers status|resume`.)
 */
export const registerSubscribers = (program: Command): void => {
  const subscribers = program.command('subscribers').description('durable subscribers: state, the event a parked one failed on, checkpoint; resume');

  action(
    subscribers.command('status [name]').description('state, parking reason and failing event, and checkpoint of each subscriber (or of NAME)'),
    async (context, name: string | undefined) => {
      const statuses = await withLedger(context, { write: false }, async (_ledger, store) =>
        name === undefined ? readSubscriberStatuses(store) : [await readSubscriberStatus(store, name)],
      );
      emit(context.io, context.json, name === undefined ? statuses : statuses[0], () =>
        statuses.length === 0 ? 'no durable subscribers registered' : statuses.map(statusLine).join('\n'),
      );
    },
  );

  action(
    subscribers.command('resume <name>').description('un-park a subscriber: it delivers the event it failed on again first, then the rest'),
    async (context, name: string) => {
      const resumed = await withLedger(context, { write: true }, (_ledger, store) => resumeSubscribers(store, name));
      emit(context.io, context.json, { resumed }, () => (resumed.length === 0 ? `${name} is not parked` : `resumed ${name}`));
    },
  );
};

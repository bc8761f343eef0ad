import type { Command } from 'commander';
import type * as Sessions from '@session-ledger/sessions';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { resolveId } from './catalog.js';
import { emit, note } from '../output.js';

/** Loaded on demand, so that other commands start fast. */
const load = (): Promise<typeof Sessions> => import('@session-ledger/sessions');
/** Durations and outcomes are parsed by the one parser the HTTP service uses too. */
const input = () => import('@session-ledger/events');

/** `turns`: a live turn owns its session until it ends or its lease expires. */
export const registerTurns = (program: Command): void => {
  const turns = program.command('turns').description('turns and their leases');

  action(
    turns
      .command('begin <session>')
      .description('begin a turn holding a lease on the session')
      .option('--owner <name>', 'who holds the lease')
      .option('--ttl <duration>', 'lease length, e.g. 30s, 5m', '30s'),
    async (context, session: string, options: { owner?: string; ttl: string }) => {
      const S = await load();
      const ttlMs = (await input()).parseDuration('--ttl', options.ttl);
      const result = await withLedger(context, { write: true }, async (ledger, store) =>
        S.beginTurn({ ledger, now: context.now }, await resolveId(store, session), { ttlMs, owner: options.owner }),
      );
      emit(context.io, context.json, result, () => result.turnId);
      note(context.io, context.json, `lease until ${result.leaseExpiresAt}`);
    },
  );

  action(
    turns.command('renew <session> <turn>').description('renew the lease').option('--ttl <duration>', 'new lease length from now', '30s'),
    async (context, session: string, turn: string, options: { ttl: string }) => {
      const S = await load();
      const ttlMs = (await input()).parseDuration('--ttl', options.ttl);
      const result = await withLedger(context, { write: true }, async (ledger, store) => S.renewLease({ ledger, now: context.now }, await resolveId(store, session), turn, { ttlMs }));
      emit(context.io, context.json, result, () => result.leaseExpiresAt);
    },
  );

  action(
    turns.command('end <session> <turn>').description('end the turn (ending an ended turn again is a no-op; with another --outcome, a duplicate)').option('--outcome <outcome>', 'completed|interrupted|failed (default: completed)'),
    async (context, session: string, turn: string, options: { outcome?: string }) => {
      const S = await load();
      const outcome = options.outcome === undefined ? undefined : (await input()).parseOutcome('--outcome', options.outcome);
      const result = await withLedger(context, { write: true }, async (ledger, store) => S.endTurn({ ledger, now: context.now }, await resolveId(store, session), turn, { outcome }));
      emit(context.io, context.json, result, () => '');
      note(context.io, context.json, `ended ${turn}`);
    },
  );
};

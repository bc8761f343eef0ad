import type { Command } from 'commander';
import { readModelsOf, rebuildFaulted, type ReadModelMeta } from '@session-ledger/read-models';
import { action } from '../action.js';
import { towardsHead, withLedger } from '../context.js';
import { emit, field } from '../output.js';
import { progressFor } from '../progress.js';

const statusLine = (meta: ReadModelMeta): string =>
  [meta.name, `v${meta.version}`, meta.status, `position ${meta.position}`, meta.error === null ? '' : field(meta.error)].join('\t').trimEnd();

/**
 * `projections`: the persistent read models (the session catalog, ...): their version, state
 * (ok, rebuilding, faulted and why) and the position they reached; `rebuild` drops one (or all) and
 * folds $all into it again, which also repairs a faulted one.
 */
export const registerProjections = (program: Command): void => {
  const projections = program.command('projections').description('persistent read models: status, rebuild');

  action(projections.command('status').description('each read model: version, state (ok, rebuilding, faulted: why), position reached'), async (context) => {
    const statuses = await withLedger(context, { write: false }, async (_ledger, store) => readModelsOf(store).status());
    emit(context.io, context.json, statuses, () => statuses.map(statusLine).join('\n'));
  });

  action(
    projections.command('rebuild [name]').description('drop a read model (default: every one) and fold $all into it again; repairs a faulted one'),
    async (context, name: string | undefined) => {
      const bar = progressFor(context, `rebuild ${name ?? 'read models'}`, 'events');
      const statuses = await withLedger(context, { write: true }, async (_ledger, store) => {
        const models = readModelsOf(store);
        try {
          await models.rebuild(name, towardsHead(bar));
        } finally {
          bar.stop();
        }
        return (await models.status()).filter((meta) => name === undefined || meta.name === name);
      });
      // A rebuild that ends faulted is a failure (exit 4), never a 0 beside a "faulted" line.
      const faulted = statuses.find((meta) => meta.status === 'faulted');
      if (faulted) throw rebuildFaulted(faulted.name, faulted.error ?? 'unknown');
      emit(context.io, context.json, statuses, () => statuses.map(statusLine).join('\n'));
    },
  );
};

import type { Command } from 'commander';
import { ledgerError } from '@session-ledger/core';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { emit } from '../output.js';
import { progressFor } from '../progress.js';

/** `audit verify`: recompute every hash chain and report the first broken link. */
export const registerAudit = (program: Command): void => {
  const audit = program.command('audit').description('verify the tamper-evident hash chains');
  action(
    audit.command('verify').description('recompute chains; exit 1 at the first broken link').option('--stream <name>', 'only this stream'),
    async (context, options: { stream?: string }) => {
      const progress = progressFor(context, 'verify', 'events');
      const report = await withLedger(context, { write: false }, (ledger) =>
        ledger.verify({ stream: options.stream, onProgress: (done) => progress.update(done) }),
      ).finally(() => progress.stop());
      if (report.broken) {
        const { stream, revision, expected, found } = report.broken;
        emit(context.io, context.json, { ok: false, ...report }, () => '');
        throw ledgerError(
          'chain_broken',
          `Chain broken at ${stream}@${revision}: expected ${expected}, found ${found}`,
          { stream, revision: revision.toString(), expected, found },
        );
      }
      emit(context.io, context.json, { ok: true, ...report }, () => `ok: ${report.streams} streams, ${report.events} events verified`);
    },
  );
};

import type { Command } from 'commander';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { EXIT_CODES } from '../exitCodes.js';
import { emit, note } from '../output.js';
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
        if (context.json) emit(context.io, true, { ok: false, ...report }, () => '');
        context.io.err(`session-ledger: Chain broken at ${stream}@${revision}: expected ${expected}, found ${found}`);
        return EXIT_CODES.chain_broken;
      }
      emit(context.io, context.json, { ok: true, ...report }, () => `ok: ${report.streams} streams, ${report.events} events verified`);
      if (report.deletedInAll) note(context.io, context.json, `${report.deletedInAll} events of deleted streams are still in $all until a scavenge (accounted for, not checked)`);
    },
  );
};

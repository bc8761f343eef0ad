import type { Command } from 'commander';
import type * as Sessions from '@session-ledger/sessions';
import { action } from '../action.js';
import { withLedger } from '../context.js';
import { resolveId } from './catalog.js';
import { emit, note } from '../output.js';
import { contentOf, toolCallsOf } from './sessionInput.js';

/** Loaded on demand, so that other commands start fast. */
const load = (): Promise<typeof Sessions> => import('@session-ledger/sessions');
const input = () => import('@session-ledger/events');

const ROLES = ['user', 'assistant', 'tool', 'system'] as const;

/** `messages`: append to a session, rewrite one in place. */
export const registerMessages = (program: Command): void => {
  const messages = program.command('messages').description('append and rewrite messages');

  action(
    messages
      .command('append <session>')
      .description('append one message')
      .requiredOption('--role <role>', ROLES.join('|'))
      .option('--content <text>', 'the message text (or --content-file)')
      .option('--content-file <path>', 'read the content from a file, or - for standard input')
      .option('--id <id>', 'message id (reuse it to retry idempotently)')
      .option('--turn <turn>', 'the turn it belongs to')
      .option('--tool-call-id <id>', 'with --role tool: the id of the call this result answers')
      .option('--tool-name <name>', 'with --role tool: the name of the tool that produced it')
      .option('--tool-calls <json>', 'JSON array of tool calls'),
    async (
      context,
      session: string,
      options: { role: string; content?: string; contentFile?: string; id?: string; turn?: string; toolCallId?: string; toolName?: string; toolCalls?: string },
    ) => {
      const S = await load();
      const role = (await input()).parseRole('--role', options.role);
      const toolCalls = toolCallsOf(options.toolCalls);
      const content = contentOf(options);
      const result = await withLedger(context, { write: true }, async (ledger, store) =>
        S.appendMessage(
          { ledger, now: context.now },
          await resolveId(store, session),
          { id: options.id, role, content, toolCalls, toolCallId: options.toolCallId, toolName: options.toolName },
          { turnId: options.turn },
        ),
      );
      emit(context.io, context.json, result, () => result.messageId);
      note(context.io, context.json, `${result.written ? 'appended to' : 'already stored (a retry): nothing written to'} ${result.sessionId}@${result.revision}`);
    },
  );

  action(
    messages
      .command('rewrite <session> <message>')
      .description('rewrite a message in place (same id; earlier versions stay in the display view)')
      .option('--content <text>', 'the new text (or --content-file)')
      .option('--content-file <path>', 'read the content from a file, or - for standard input'),
    async (context, session: string, message: string, options: { content?: string; contentFile?: string }) => {
      const S = await load();
      const content = contentOf(options);
      const result = await withLedger(context, { write: true }, async (ledger, store) => S.rewriteMessage({ ledger, now: context.now }, await resolveId(store, session), message, content));
      emit(context.io, context.json, result, () => '');
      note(context.io, context.json, `rewrote ${message} in ${session}@${result.revision}`);
    },
  );
};

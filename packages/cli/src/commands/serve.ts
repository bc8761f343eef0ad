import type { Command } from 'commander';
import { createLedger, invalidInput } from '@session-ledger/core';
import { MEMORY_SETTINGS, startConfiguredFanOut } from '@session-ledger/memory';
import { action } from '../action.js';
import { openShowingProgress } from '../context.js';
import { emit, note } from '../output.js';
import { parseCountOption } from '../parse.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `serve`: the HTTP service on one store until SIGINT/SIGTERM. */
export const registerServe = (program: Command): void => {
  action(
    program
      .command('serve')
      .description('run the HTTP service (loopback by default; a bearer token is required for any other address)')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--port <port>', 'port (0: any free port)', '4780')
      .option('--token <token>', 'bearer token required on every request (env SESSION_LEDGER_TOKEN)')
      .option('--allowed-host <host>', 'also accept this Host header (name or name:port; repeatable; * for any)', collect, [])
      .option('--cors-origin <origin>', 'let this origin (https://app.example) call the service from a browser (repeatable; * for any)', collect, [])
      .option('--max-subscribers <n>', 'event streams (SSE) served at once; more are answered 503', '64')
      .option('--mirror <dir>', `keep a Markdown mirror of memory (MEMORY.md, USER.md) in this directory (env ${MEMORY_SETTINGS.mirror})`),
    async (
      context,
      options: { host: string; port: string; token?: string; mirror?: string; allowedHost: string[]; corsOrigin: string[]; maxSubscribers: string },
    ) => {
      const { createHttpService, isLoopback } = await import('@session-ledger/http');
      const port = parseCountOption('port', options.port);
      const maxSubscribers = parseCountOption('max-subscribers', options.maxSubscribers);
      const token = options.token ?? process.env.SESSION_LEDGER_TOKEN;
      if (!isLoopback(options.host) && !token) {
        throw invalidInput(`Refusing to bind ${options.host} without --token: only loopback may be served without a bearer token`);
      }
      const { store } = await openShowingProgress(context, context.storeUrl, { write: true });
      const settings: Record<string, string | undefined> = { ...process.env };
      if (options.mirror) settings[MEMORY_SETTINGS.mirror] = options.mirror;
      const server = createHttpService({
        ledger: createLedger(store),
        store,
        now: context.now,
        token,
        settings,
        host: options.host,
        allowedHosts: options.allowedHost,
        corsOrigins: options.corsOrigin,
        maxSubscribers,
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, options.host, () => resolve());
      }).catch((error: NodeJS.ErrnoException) => {
        void store.close();
        throw invalidInput(`Cannot listen on ${options.host}:${port}: ${error.code ?? error.message}`);
      });
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${actualPort}`;
      const fanOut = startConfiguredFanOut(store, settings, (warning) =>
        context.io.err(`session-ledger: memory provider ${warning.provider}: ${warning.message}`),
      );
      emit(context.io, context.json, { url, store: store.name }, () => url);
      note(context.io, context.json, `session-ledger listening on ${url} (store ${store.name}); Ctrl-C stops it`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          server.closeAllConnections();
          server.close(() => resolve());
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await fanOut?.stop();
      await store.close();
    },
  );
};

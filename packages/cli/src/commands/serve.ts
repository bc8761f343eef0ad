import type { Command } from 'commander';
import { invalidInput } from '@session-ledger/core';
import { budgetsFromSettings, MEMORY_SETTINGS, mirrorFromSettings, startConfiguredFanOut } from '@session-ledger/memory';
import { action } from '../action.js';
import { openShowingProgress, type CommandContext } from '../context.js';
import { emit, note } from '../output.js';
import { parseCountOption } from '../parse.js';
import { serveCluster } from './serveCluster.js';
import { closeServer, listenService, urlOf, type ServeConfig } from './serveService.js';
import { DEFAULT_WORKERS, workerCount } from './serveWorkers.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** One process: the service, the memory fan-out and the store here, until SIGINT/SIGTERM. */
const serveHere = async (context: CommandContext, config: ServeConfig): Promise<void> => {
  const { store } = await openShowingProgress(context, config.storeUrl, { write: true });
  let server: Awaited<ReturnType<typeof listenService>>['server'];
  let port: number;
  try {
    ({ server, port } = await listenService(config, store, context.now));
  } catch (error) {
    void store.close();
    throw error;
  }
  const url = urlOf(config.host, port);
  const fanOut = startConfiguredFanOut(store, config.settings, (warning) =>
    context.io.err(`session-ledger: memory provider ${warning.provider}: ${warning.message}`),
  );
  emit(context.io, context.json, { url, store: store.name }, () => url);
  note(context.io, context.json, `session-ledger listening on ${url} (store ${store.name}); Ctrl-C stops it`);
  await new Promise<void>((resolve) => {
    const stop = () => void closeServer(server).then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await fanOut?.stop();
  await store.close();
};

/** `serve`: the HTTP service on one store until SIGINT/SIGTERM, in this process or in `--workers N` processes. */
export const registerServe = (program: Command): void => {
  action(
    program
      .command('serve')
      .description('run the HTTP service (loopback by default; a bearer token is required for any other address)')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--port <port>', 'port (0: any free port)', '4780')
      .option('--token <token>', 'bearer token required on every request (env SESSION_LEDGER_TOKEN)')
      .option('--allowed-host <host>', 'also accept this Host header (name: bare or with the server port; name:port: that port only; repeatable; * for any)', collect, [])
      .option('--cors-origin <origin>', 'let this origin (https://app.example) call the service from a browser (repeatable; * for any)', collect, [])
      .option('--max-subscribers <n>', 'event streams (SSE) served at once, counted over all workers; more are answered 503', '64')
      .option(
        '--workers <n>',
        `processes serving requests, each with its own connection to the one SQLite file (env SESSION_LEDGER_WORKERS; default ${DEFAULT_WORKERS}); sqlite: only`,
      )
      .option('--mirror <dir>', `keep a Markdown mirror of memory (MEMORY.md, USER.md) in this directory (env ${MEMORY_SETTINGS.mirror})`),
    async (
      context,
      options: { host: string; port: string; token?: string; mirror?: string; allowedHost: string[]; corsOrigin: string[]; maxSubscribers: string; workers?: string },
    ) => {
      const { checkServiceOptions, isLoopback } = await import('@session-ledger/http');
      const port = parseCountOption('port', options.port);
      const maxSubscribers = parseCountOption('max-subscribers', options.maxSubscribers);
      const workers = workerCount(options.workers ?? process.env.SESSION_LEDGER_WORKERS ?? DEFAULT_WORKERS, context.storeUrl);
      // An empty variable is unset, as for every setting; an empty --token is refused (checkServiceOptions).
      const token = options.token ?? (process.env.SESSION_LEDGER_TOKEN || undefined);
      checkServiceOptions({ token, allowedHosts: options.allowedHost, corsOrigins: options.corsOrigin });
      if (!isLoopback(options.host) && !token) {
        throw invalidInput(`Refusing to bind ${options.host} without --token: only loopback may be served without a bearer token`);
      }
      // Any Host (DNS rebinding) or any origin lets every web page drive the server: only with a token (outside test, session 21).
      for (const [flag, values] of [['--allowed-host', options.allowedHost], ['--cors-origin', options.corsOrigin]] as const) {
        if (values.includes('*') && !token) throw invalidInput(`Refusing ${flag} '*' without --token: it lets any web page read and write the ledger`);
      }
      const settings: Record<string, string | undefined> = { ...process.env };
      if (options.mirror) settings[MEMORY_SETTINGS.mirror] = options.mirror;
      // The memory settings checked before anything listens: a bad budget answered every memory write
      // 400, blaming the client, and a bad mirror profile failed after the listen, which went on
      // (outside test, session 34, helper-94 F11, F5).
      budgetsFromSettings(settings);
      mirrorFromSettings(settings);
      const config: ServeConfig = {
        storeUrl: context.storeUrl,
        host: options.host,
        port,
        token,
        settings,
        allowedHosts: options.allowedHost,
        corsOrigins: options.corsOrigin,
        maxSubscribers,
      };
      if (workers === 1) return serveHere(context, config);
      // Opened once here: a missing, foreign or locked file fails as it does with one process, and
      // the schema is migrated before the workers open it.
      const { store } = await openShowingProgress(context, config.storeUrl, { write: true });
      const storeName = store.name;
      await store.close();
      await serveCluster(context, config, workers, storeName);
    },
  );
};

import type { Server } from 'node:http';
import { createLedger, invalidInput, type EventStore } from '@session-ledger/core';
import type { SubscriberSlots } from '@session-ledger/http';

/** What `serve` runs, in its own process or in each worker (`--workers N`): plain data, sent to workers over IPC. */
export interface ServeConfig {
  storeUrl: string;
  host: string;
  /** The port asked for (0: any free port; with workers, one port shared by all of them). */
  port: number;
  token: string | undefined;
  settings: Record<string, string | undefined>;
  allowedHosts: string[];
  corsOrigins: string[];
  maxSubscribers: number;
}

export const urlOf = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The HTTP service on an open store, listening; a port that cannot be bound is a one-line invalid-input error. */
export const listenService = async (
  config: ServeConfig,
  store: EventStore,
  now: () => Date,
  subscriberSlots?: SubscriberSlots,
): Promise<{ server: Server; port: number }> => {
  const { createHttpService } = await import('@session-ledger/http');
  const server = createHttpService({
    ledger: createLedger(store),
    store,
    now,
    token: config.token,
    settings: config.settings,
    host: config.host,
    allowedHosts: config.allowedHosts,
    corsOrigins: config.corsOrigins,
    maxSubscribers: config.maxSubscribers,
    subscriberSlots,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch((error: NodeJS.ErrnoException) => {
    throw invalidInput(`Cannot listen on ${config.host}:${config.port}: ${error.code ?? error.message}`);
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : config.port };
};

/** Stops accepting, drops open connections (keep-alive, event streams), resolves once closed. */
export const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

import { createServer } from 'node:net';

/**
 * The port `serve --workers N` gives its workers: `--port 0` is resolved once, here, to a free port.
 * node:cluster closes the listening socket when every worker is dead at once (killed together),
 * and a replacement listening on port 0 would then get a new port nobody was told of; on a fixed
 * port it binds the same one again. If no port can be had here, the workers meet the error; if
 * another process takes the port between this probe and the workers' listen (the time a worker
 * takes to start), they fail as on a port in use (exit 2).
 */
export const fixedPort = (host: string, port: number): Promise<number> =>
  port !== 0
    ? Promise.resolve(port)
    : new Promise((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(0));
        probe.listen(0, host, () => {
          const address = probe.address();
          probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
        });
      });

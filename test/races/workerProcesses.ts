import { request } from 'node:http';

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits until `check` holds (polling), at most `ms`. */
export const eventually = async (check: () => boolean, what: string, ms = 20_000): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * One JSON POST on a connection of its own (no keep-alive agent): the cluster's primary hands each
 * new connection to the next worker, so consecutive calls reach the workers in turn. `timeoutMs`:
 * give up (reject) when no answer came by then.
 */
export const postFresh = (url: string, path: string, body: unknown, timeoutMs?: number): Promise<{ status: number; json: any }> =>
  new Promise((resolve, reject) => {
    const base = new URL(url);
    const req = request(
      { host: base.hostname, port: base.port, method: 'POST', path, agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.end(JSON.stringify(body));
  });

/**
 * Resolves once `GET /health` answers 200 on a new connection, trying again while connections are
 * refused or unanswered (no worker listening yet, or the one handed the connection was killed).
 */
export const serving = async (url: string, ms = 20_000): Promise<void> => {
  const start = Date.now();
  for (;;) {
    const status = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() - start > ms) throw new Error(`${url} did not serve in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

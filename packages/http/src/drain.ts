import type { ServerResponse } from 'node:http';

/** Resolves once the socket's buffer has drained, or the response is closed. */
const drained = (res: ServerResponse): Promise<void> =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * Writes, then (when the socket's buffer is full) gives the promise to wait on: a client that does
 * not read holds the server's loop, never its memory. Not async itself, so that the text written is
 * not held while the caller waits (only the socket's copy is).
 */
export const writer =
  (res: ServerResponse) =>
  (text: string): Promise<void> | undefined =>
    res.destroyed || res.write(text) ? undefined : drained(res);

import type { ServerResponse } from 'node:http';

/** Writes, then waits while the socket's buffer is full: a client that does not read holds the server's loop, never its memory. */
export const writer = (res: ServerResponse) => async (text: string): Promise<void> => {
  if (res.destroyed) return;
  if (res.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
};

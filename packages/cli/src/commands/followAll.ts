import type { EventStore, RecordedEvent } from '@session-ledger/core';

/** Prints history then live events until SIGINT/SIGTERM or a closed pipe. */
export const followAll = async (
  store: EventStore,
  from: bigint | undefined,
  print: (event: RecordedEvent) => void,
): Promise<void> => {
  const subscription = store.subscribeToAll({ fromPosition: from === undefined || from === 0n ? 'start' : from - 1n });
  const stop = () => void subscription.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.once('error', stop);
  try {
    for await (const item of subscription) if (item.kind === 'event') print(item.event);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
};

/**
 * The `--max-subscribers` limit: a slot per open event stream (SSE). In one process it is a
 * counter; `serve --workers N` passes slots held by the primary process (one count over every
 * worker), so the limit is the server's total whatever worker a client lands on.
 */
export interface SubscriberSlots {
  /** The limit, for the 503's message. */
  readonly max: number;
  /** Takes a slot: true, or false when `max` streams are open already. */
  acquire(): boolean | Promise<boolean>;
  /** Gives a taken slot back (once per granted acquire). */
  release(): void;
}

/** Slots counted in this process. */
export const localSlots = (max: number): SubscriberSlots => {
  let open = 0;
  return {
    max,
    acquire: () => {
      if (open >= max) return false;
      open += 1;
      return true;
    },
    release: () => {
      open -= 1;
    },
  };
};

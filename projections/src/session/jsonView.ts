import { jsonSafe } from '@session-ledger/core';

/** The JSON shape of a view: bigint revisions and positions become numbers, Maps are not part of views. */
export type Jsonified<T> = T extends bigint
  ? number
  : T extends Array<infer Item>
    ? Array<Jsonified<Item>>
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/** For every JSON surface (CLI --json, HTTP): revisions and positions print as numbers (strings past 2^53). */
export const viewToJson = <T>(view: T): Jsonified<T> => jsonSafe(view) as Jsonified<T>;

import type { Position } from '@eventstore/db-client';

/**
 * The port's one bigint position is EventStoreDB's commit position. A position handed to the
 * server carries it as both halves: outside explicit transactions (which this adapter never
 * writes) an event's prepare position equals its commit position.
 */
export const toClientPosition = (position: bigint): Position => ({ commit: position, prepare: position });

export const fromClientPosition = (position: Position | undefined): bigint | undefined => position?.commit;

/** EventStoreDB reports "no position" as the largest unsigned 64-bit value. */
export const NO_POSITION = 18446744073709551615n;

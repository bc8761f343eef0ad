import { DEFAULT_SUBSCRIBER_RETRY, type RetryOptions } from '@session-ledger/core';

/** The fan-out's error policy is every durable subscriber's (core's subscribers/backoff.ts). */
export { backoffDelay, sleep, type RetryOptions } from '@session-ledger/core';

export const DEFAULT_PROVIDER_RETRY: RetryOptions = DEFAULT_SUBSCRIBER_RETRY;

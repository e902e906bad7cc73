/**
 * How long to wait before retrying a request: the server's Retry-After when
 * it sent one, else exponential backoff, both capped.
 *
 * @module
 */

/**
 * Reads a Retry-After header: delay-seconds (`"2"`, `"1.5"`) or an HTTP date.
 *
 * @param header the header's value, or null
 * @param now the current time, in milliseconds since the epoch
 * @returns the wait in milliseconds (0 for a date in the past), or undefined when absent or unreadable
 * @example
 * ```ts
 * import { retryAfterMs } from "./_backoff.ts";
 * retryAfterMs("2", 0); // 2000
 * retryAfterMs("Thu, 01 Jan 1970 00:00:05 GMT", 1000); // 4000
 * ```
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined; // "-1", "" and the like are not dates
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** What {@link retryWaitMs} needs. */
export interface RetryWaitInput {
  /** 0 for the first retry. */
  readonly retry: number;
  /** The first retry's wait when the server gave no Retry-After; it doubles each time. */
  readonly backoffMs: number;
  /** No wait is longer than this, whatever the server asks. */
  readonly maxWaitMs: number;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number | undefined;
}

/**
 * The wait before a retry.
 *
 * @param input the retry number, the backoff base, the cap and the server's Retry-After
 * @returns milliseconds to wait
 * @example
 * ```ts
 * import { retryWaitMs } from "./_backoff.ts";
 * retryWaitMs({ retry: 2, backoffMs: 500, maxWaitMs: 30000 }); // 2000
 * retryWaitMs({ retry: 0, backoffMs: 500, maxWaitMs: 30000, retryAfterMs: 90000 }); // 30000
 * ```
 */
export function retryWaitMs(input: RetryWaitInput): number {
  const wait = input.retryAfterMs ?? input.backoffMs * 2 ** input.retry;
  return Math.max(0, Math.min(wait, input.maxWaitMs));
}

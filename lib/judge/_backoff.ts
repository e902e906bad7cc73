/**
 * Retrying HTTP requests, shared by the judge (openai_judge.ts) and the HTTP
 * agent transport (lib/agents/http_agent.ts): how long to wait before a
 * retry (the server's Retry-After when it sent one, else exponential
 * backoff, both capped), and how to say in one line why a request failed.
 *
 * @module
 */
import * as v from "valibot";

const errorBodySchema = v.object({
  error: v.union([v.string(), v.object({ message: v.string() })]),
});

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

/**
 * Why a fetch failed, one line. Deno and Node say only "fetch failed" and
 * keep the reason ("Connection refused") in the error's cause.
 */
export function fetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : "";
  const text = cause === "" || error.message.includes(cause)
    ? error.message
    : `${error.message}: ${cause}`;
  return text.trim().split(/\r?\n/)[0] ?? "";
}

/** The error message in an error response's body, one line, short. */
export function serverMessage(text: string): string {
  let message = text;
  try {
    const parsed = v.safeParse(errorBodySchema, JSON.parse(text));
    if (parsed.success) {
      const error = parsed.output.error;
      message = typeof error === "string" ? error : error.message;
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  const line = message.trim().split(/\r?\n/)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

/**
 * One POST with retries, shared by the judge (lib/judge/openai_judge.ts) and
 * the HTTP agent transport (lib/agents/http_agent.ts): a refused or broken
 * connection, a 429 and a 5xx are tried again, waiting the server's
 * Retry-After when it sent one, else an exponential backoff, both capped;
 * any other answer is the caller's to read. The outcome is data, so each
 * caller says in its own words what went wrong.
 *
 * @module
 */
import * as v from "valibot";

/**
 * What {@link postWithRetries} sends and how long it keeps trying.
 *
 * @example
 * ```ts
 * import type { RetryingPost } from "./retry.ts";
 * const post: RetryingPost = {
 *   url: new URL("http://127.0.0.1:8000/answer"),
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 *   retries: 3,
 *   backoffMs: 500,
 *   maxWaitMs: 30_000,
 * };
 * ```
 */
export interface RetryingPost {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Attempts after the first, for a retryable failure. */
  readonly retries: number;
  /** The first retry's wait when the server sends no Retry-After; it doubles each retry. */
  readonly backoffMs: number;
  /** No wait is longer than this, whatever the server asks. */
  readonly maxWaitMs: number;
  /** Gives up on one attempt after this many milliseconds (default: no limit of its own). */
  readonly attemptTimeoutMs?: number | undefined;
  /** The caller's own end: aborts the attempt in flight and any wait. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * How a {@link postWithRetries} ended:
 * - `answered`: a status that is not retried (any 2xx, or a 4xx other than
 *   429), with the body's text;
 * - `gave_up`: every attempt failed in a retryable way; `why` is the last
 *   failure in one line (`503 Service Unavailable: overloaded`);
 * - `timed_out`: an attempt ran past `attemptTimeoutMs`;
 * - `aborted`: the caller's signal, during an attempt or (`waiting`) between two.
 *
 * @example
 * ```ts
 * import type { RetryOutcome } from "./retry.ts";
 * const outcome: RetryOutcome = { kind: "gave_up", why: "429 Too Many Requests", attempts: 4, status: 429 };
 * ```
 */
export type RetryOutcome =
  | {
    readonly kind: "answered";
    readonly status: number;
    /** `404 Not Found`: the status and its text. */
    readonly statusLine: string;
    readonly ok: boolean;
    readonly text: string;
  }
  | {
    readonly kind: "gave_up";
    readonly why: string;
    readonly attempts: number;
    /** The last attempt's status, when the server answered. */
    readonly status?: number | undefined;
  }
  | { readonly kind: "timed_out" }
  | { readonly kind: "aborted"; readonly waiting: boolean };

/** One attempt that may be tried again. */
interface Retryable {
  readonly kind: "retry";
  readonly why: string;
  readonly status?: number | undefined;
  readonly retryAfterMs?: number | undefined;
}

/**
 * POSTs `body` until the server answers with a status that is not retried,
 * the retries run out, an attempt times out, or the caller's signal aborts.
 * Never throws for what the network or the server does.
 *
 * @param post the request, the retry limits and the signal
 * @returns how it ended
 * @example
 * ```ts
 * import { postWithRetries } from "./retry.ts";
 * let calls = 0;
 * const server = Deno.serve({ port: 0, onListen() {} }, () =>
 *   ++calls === 1 ? new Response("busy", { status: 503 }) : new Response("ok"));
 * const outcome = await postWithRetries({
 *   url: new URL(`http://127.0.0.1:${server.addr.port}/`),
 *   headers: {},
 *   body: "{}",
 *   retries: 1,
 *   backoffMs: 1,
 *   maxWaitMs: 10,
 * });
 * outcome.kind === "answered" && outcome.text; // "ok"
 * await server.shutdown();
 * ```
 */
export async function postWithRetries(post: RetryingPost): Promise<RetryOutcome> {
  for (let retry = 0;; retry++) {
    const outcome = await attempt(post);
    if (outcome.kind !== "retry") return outcome;
    if (retry >= post.retries) {
      return { kind: "gave_up", why: outcome.why, attempts: retry + 1, status: outcome.status };
    }
    const wait = retryWaitMs({
      retry,
      backoffMs: post.backoffMs,
      maxWaitMs: post.maxWaitMs,
      retryAfterMs: outcome.retryAfterMs,
    });
    if (!await sleep(wait, post.signal)) return { kind: "aborted", waiting: true };
  }
}

/** One POST: an outcome, or a failure worth another attempt. */
async function attempt(post: RetryingPost): Promise<RetryOutcome | Retryable> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  const signal = post.signal;
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = post.attemptTimeoutMs === undefined
    ? undefined
    : setTimeout(() => stop.abort(), post.attemptTimeoutMs);
  const stopped = (): RetryOutcome =>
    signal?.aborted ? { kind: "aborted", waiting: false } : { kind: "timed_out" };
  try {
    let response: Response;
    let text: string;
    try {
      response = await fetch(post.url, {
        method: "POST",
        headers: post.headers,
        body: post.body,
        signal: stop.signal,
      });
    } catch (error) {
      if (stop.signal.aborted) return stopped();
      return { kind: "retry", why: `could not reach it: ${fetchFailure(error)}` };
    }
    try {
      text = await response.text();
    } catch (error) {
      if (stop.signal.aborted) return stopped();
      return {
        kind: "retry",
        why: `the connection broke during the reply: ${fetchFailure(error)}`,
      };
    }
    const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    if (response.status === 429 || response.status >= 500) {
      const said = serverMessage(text);
      return {
        kind: "retry",
        why: said === "" ? statusLine : `${statusLine}: ${said}`,
        status: response.status,
        retryAfterMs: retryAfterMs(response.headers.get("retry-after"), Date.now()),
      };
    }
    return { kind: "answered", status: response.status, statusLine, ok: response.ok, text };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Waits `ms`; false when the signal aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

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
 * import { retryAfterMs } from "./retry.ts";
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

/**
 * What {@link retryWaitMs} needs.
 *
 * @example
 * ```ts
 * import type { RetryWaitInput } from "./retry.ts";
 * const input: RetryWaitInput = { retry: 0, backoffMs: 500, maxWaitMs: 30_000 };
 * ```
 */
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
 * import { retryWaitMs } from "./retry.ts";
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
 *
 * @param error what fetch threw
 * @returns the reason, one line
 * @example
 * ```ts
 * import { fetchFailure } from "./retry.ts";
 * fetchFailure(new TypeError("fetch failed", { cause: new Error("Connection refused") }));
 * // "fetch failed: Connection refused"
 * ```
 */
export function fetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : "";
  const text = cause === "" || error.message.includes(cause)
    ? error.message
    : `${error.message}: ${cause}`;
  return text.trim().split(/\r?\n/)[0] ?? "";
}

/**
 * The error message in an error response's body, one line, short: the
 * `error` (or `error.message`) of a JSON body, else the text itself.
 *
 * @param text the body
 * @returns the message
 * @example
 * ```ts
 * import { serverMessage } from "./retry.ts";
 * serverMessage('{"error": {"message": "overloaded"}}'); // "overloaded"
 * serverMessage("Bad Gateway\n<html>..."); // "Bad Gateway"
 * ```
 */
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

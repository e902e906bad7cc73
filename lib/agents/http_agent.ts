/**
 * The HTTP transport (`run --agent-url http://127.0.0.1:8000/answer`): each
 * case is one POST of the request JSON, answered by the reply JSON. A broken
 * connection, a 429 and a 5xx are retried with exponential backoff,
 * honouring Retry-After (the judge's rules, lib/judge/_backoff.ts); any other
 * status is an ERROR for the case quoting the first line of the body.
 * docs/agent-protocol.md describes the protocol.
 *
 * @module
 */
import { AgentError, UsageError } from "../errors.ts";
import type { AgentContext } from "../eval/agent.ts";
import { fetchFailure, retryAfterMs, retryWaitMs, serverMessage } from "../judge/_backoff.ts";
import { agentRequest, clip, parseReplyJson, readReply } from "./_protocol.ts";
import type { ClosableAgent } from "./types.ts";

/**
 * Options of {@link httpAgent}.
 *
 * @example
 * ```ts
 * import type { HttpAgentOptions } from "./http_agent.ts";
 * const options: HttpAgentOptions = {
 *   url: "http://127.0.0.1:8000/answer",
 *   headers: { authorization: "Bearer secret" },
 *   retries: 2,
 * };
 * options.retries; // 2
 * ```
 */
export interface HttpAgentOptions {
  /** The endpoint to POST each request to (http or https). */
  readonly url: string;
  /** Extra request headers, e.g. `{ authorization: "Bearer ..." }`. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Gives up on one attempt after this many milliseconds (default: no limit
   * of its own; the case's timeout still ends the request).
   */
  readonly timeoutMs?: number | undefined;
  /** Retries after a 429, a 5xx or a broken connection (default 3). */
  readonly retries?: number | undefined;
  /** The first retry's wait when the server sends no Retry-After; doubles each retry (default 500). */
  readonly backoffMs?: number | undefined;
  /** No wait between retries is longer than this, even if Retry-After asks for more (default 30000). */
  readonly maxWaitMs?: number | undefined;
}

const DEFAULTS = { retries: 3, backoffMs: 500, maxWaitMs: 30_000 };

/** One attempt's outcome when it is neither a reply nor a final error. */
interface Retryable {
  readonly why: string;
  readonly retryAfterMs?: number | undefined;
}

/**
 * An agent served over HTTP.
 *
 * @param options the URL, headers and retry limits
 * @returns the agent (its `close()` has nothing to release)
 * @throws {UsageError} when the URL is not an http(s) URL or a limit is out of range
 * @example
 * ```ts
 * import { httpAgent } from "./http_agent.ts";
 * import { defineCase, runSuite } from "../../mod.ts";
 * // an agent service that answers every case with the same row
 * const server = Deno.serve({ port: 0, onListen() {} }, async (request) => {
 *   const { id } = await request.json();
 *   return Response.json({ id, rows: [{ n: 2 }], answer: "2" });
 * });
 * const agent = httpAgent({ url: `http://127.0.0.1:${server.addr.port}/answer` });
 * const cases = [defineCase({ question: "1 + 1?", expect: { rows: [{ n: 2 }] } })];
 * (await runSuite(cases, agent)).passed; // 1
 * await server.shutdown();
 * ```
 */
export function httpAgent(options: HttpAgentOptions): ClosableAgent {
  const url = agentUrl(options.url);
  const shown = `${url.origin}${url.pathname}`;
  const retries = whole("retries", options.retries ?? DEFAULTS.retries);
  const backoffMs = options.backoffMs ?? DEFAULTS.backoffMs;
  const maxWaitMs = options.maxWaitMs ?? DEFAULTS.maxWaitMs;
  const headers = {
    ...options.headers,
    "content-type": "application/json",
    accept: "application/json",
  };

  const ask = async (question: string, context: AgentContext): Promise<unknown> => {
    const request = agentRequest(question, context);
    const body = JSON.stringify(request);
    for (let retry = 0;; retry++) {
      const outcome = await post({
        url,
        shown,
        headers,
        body,
        timeoutMs: options.timeoutMs,
        signal: context.signal,
      });
      if (!("why" in outcome)) return readReply(outcome.json, request.id);
      if (retry >= retries) {
        throw new AgentError(
          `the agent at ${shown} kept failing (${outcome.why}) after ${retry + 1} ` +
            `attempt${retry === 0 ? "" : "s"}`,
        );
      }
      const wait = retryWaitMs({ retry, backoffMs, maxWaitMs, retryAfterMs: outcome.retryAfterMs });
      await sleep(wait, context.signal);
    }
  };
  return Object.assign(ask, { close: () => Promise.resolve() });
}

interface Post {
  readonly url: URL;
  readonly shown: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** One POST: the reply's JSON, a retryable failure, or a thrown AgentError. */
async function post(p: Post): Promise<{ json: unknown } | Retryable> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (p.signal?.aborted) onAbort();
  p.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = p.timeoutMs === undefined ? undefined : setTimeout(onAbort, p.timeoutMs);
  const stopped = (): AgentError =>
    new AgentError(
      p.signal?.aborted
        ? `the agent at ${p.shown} did not answer in time`
        : `the agent at ${p.shown} did not answer within ${p.timeoutMs} ms`,
    );
  try {
    let response: Response;
    let text: string;
    try {
      response = await fetch(p.url, {
        method: "POST",
        headers: p.headers,
        body: p.body,
        signal: stop.signal,
      });
    } catch (error) {
      if (stop.signal.aborted) throw stopped();
      return { why: `could not reach it: ${fetchFailure(error)}` };
    }
    try {
      text = await response.text();
    } catch (error) {
      if (stop.signal.aborted) throw stopped();
      return { why: `the connection broke during the reply: ${fetchFailure(error)}` };
    }
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    if (response.status === 429 || response.status >= 500) {
      const said = serverMessage(text);
      return {
        why: said === "" ? status : `${status}: ${said}`,
        retryAfterMs: retryAfterMs(response.headers.get("retry-after"), Date.now()),
      };
    }
    if (!response.ok) {
      const said = firstLine(text);
      throw new AgentError(
        `the agent at ${p.shown} answered ${status}${
          said === "" ? " with an empty body" : `: ${said}`
        }`,
      );
    }
    try {
      return { json: parseReplyJson(text) };
    } catch {
      throw new AgentError(
        `the agent at ${p.shown} answered ${status} with a body that is not JSON: ` +
          `${
            JSON.stringify(clip(text))
          }; reply with the reply JSON (content-type application/json)`,
      );
    }
  } finally {
    clearTimeout(timer);
    p.signal?.removeEventListener("abort", onAbort);
  }
}

function firstLine(text: string): string {
  return clip(text.trim().split(/\r?\n/)[0] ?? "", 200);
}

/**
 * The endpoint URL.
 *
 * @param url what the user gave
 * @returns the parsed URL
 * @throws {UsageError} when it is not an http(s) URL
 */
function agentUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new UsageError(
      `--agent-url "${url}": not a URL; give one like http://127.0.0.1:8000/answer`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`--agent-url "${url}": it must start with http:// or https://`);
  }
  return parsed;
}

function whole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new UsageError(`httpAgent: ${name} must be a whole number of at least 0, got ${value}`);
  }
  return value;
}

/** Waits, or stops waiting when the case runs out of time. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AgentError("the case ran out of time between retries"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AgentError("the case ran out of time between retries"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

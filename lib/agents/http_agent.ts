/**
 * The HTTP transport (`run --agent-url http://127.0.0.1:8000/answer`): each
 * case is one POST of the request JSON, answered by the reply JSON. A broken
 * connection, a 429 and a 5xx are retried with exponential backoff,
 * honouring Retry-After (lib/http/retry.ts, as the judge's are); any other
 * status is an ERROR for the case quoting the first line of the body.
 * docs/agent-protocol.md describes the protocol.
 *
 * @module
 */
import { AgentError, UsageError } from "../errors.ts";
import type { AgentContext } from "../eval/agent.ts";
import { postWithRetries } from "../http/retry.ts";
import { agentRequest, clip, nonJsonNumberHint, parseReplyJson, readReply } from "./_protocol.ts";
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
    const outcome = await postWithRetries({
      url,
      headers,
      body: JSON.stringify(request),
      retries,
      backoffMs,
      maxWaitMs,
      attemptTimeoutMs: options.timeoutMs,
      signal: context.signal,
    });
    switch (outcome.kind) {
      case "gave_up":
        throw new AgentError(
          `the agent at ${shown} kept failing (${outcome.why}) after ${outcome.attempts} ` +
            `attempt${outcome.attempts === 1 ? "" : "s"}`,
        );
      case "timed_out":
        throw new AgentError(`the agent at ${shown} did not answer within ${options.timeoutMs} ms`);
      case "aborted":
        throw new AgentError(
          outcome.waiting
            ? "the case ran out of time between retries"
            : `the agent at ${shown} did not answer in time`,
        );
    }
    if (!outcome.ok) {
      const said = firstLine(outcome.text);
      throw new AgentError(
        `the agent at ${shown} answered ${outcome.statusLine}${
          said === "" ? " with an empty body" : `: ${said}`
        }`,
      );
    }
    let json: unknown;
    try {
      json = parseReplyJson(outcome.text);
    } catch {
      const hint = nonJsonNumberHint(outcome.text);
      if (hint !== undefined) throw new AgentError(hint);
      throw new AgentError(
        `the agent at ${shown} answered ${outcome.statusLine} with a body that is not JSON: ` +
          `${
            JSON.stringify(clip(outcome.text))
          }; reply with the reply JSON (content-type application/json)`,
      );
    }
    return readReply(json, request.id);
  };
  return Object.assign(ask, { close: () => Promise.resolve() });
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

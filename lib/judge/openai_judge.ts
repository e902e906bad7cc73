/**
 * The built-in judge: one chat-completions request per prompt to any
 * OpenAI-compatible endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp's
 * server), with `fetch` only.
 *
 * @module
 */
import * as v from "valibot";
import type { Judge } from "../eval/check.ts";
import { JudgeError, UsageError } from "../errors.ts";
import { fetchFailure, postWithRetries, serverMessage } from "../http/retry.ts";

/**
 * Options of the built-in judge for OpenAI-compatible endpoints.
 *
 * @example
 * ```ts
 * import { openAiJudge, type OpenAiJudgeOptions } from "./openai_judge.ts";
 * // a stand-in for an OpenAI-compatible server
 * const server = Deno.serve({ port: 0, onListen() {} }, () =>
 *   Response.json({ choices: [{ message: { role: "assistant", content: "PASS" } }] }));
 * const options: OpenAiJudgeOptions = {
 *   url: `http://localhost:${server.addr.port}/v1`,
 *   model: "llama3.1",
 *   timeoutMs: 5_000,
 *   retries: 0,
 * };
 * await openAiJudge(options)("Reply PASS."); // "PASS"
 * await server.shutdown();
 * ```
 */
export interface OpenAiJudgeOptions {
  /**
   * A base URL such as `https://api.openai.com/v1` or
   * `http://localhost:11434/v1` (`/chat/completions` is appended; a bare
   * host gets `/v1/chat/completions`), or the full URL ending in
   * `/chat/completions`, query string kept (Azure's `?api-version=...`).
   */
  readonly url: string;
  /** The model name the endpoint knows, e.g. `gpt-4o-mini` or `llama3.1`. */
  readonly model: string;
  /** Sent as `Authorization: Bearer <key>` (and `api-key` for Azure hosts) when given. */
  readonly apiKey?: string | undefined;
  /** Gives up on one request after this many milliseconds (default 120000); not retried. */
  readonly timeoutMs?: number | undefined;
  /** Retries after a 429, a 5xx or a broken connection (default 3). */
  readonly retries?: number | undefined;
  /** The first retry's wait when the server sends no Retry-After; doubles each retry (default 1000). */
  readonly backoffMs?: number | undefined;
  /** No wait between retries is longer than this, even if Retry-After asks for more (default 30000). */
  readonly maxWaitMs?: number | undefined;
}

const DEFAULTS = { timeoutMs: 120_000, retries: 3, backoffMs: 1_000, maxWaitMs: 30_000 };

const contentPart = v.object({ text: v.optional(v.string()) });
const completionSchema = v.object({
  choices: v.pipe(
    v.array(v.object({
      message: v.object({
        content: v.nullish(v.union([v.string(), v.array(contentPart)])),
        refusal: v.nullish(v.string()),
      }),
    })),
    v.minLength(1),
  ),
});
const errorBodySchema = v.object({
  error: v.union([v.string(), v.object({ message: v.string() })]),
});

/**
 * A judge backed by an OpenAI-compatible chat-completions endpoint: the
 * prompt goes as one user message, with temperature 0. A 429 or a 5xx is
 * retried with exponential backoff, honouring Retry-After (seconds or an
 * HTTP date, capped); 401, 403 and 404 fail at once with one clear error,
 * and every later call fails the same way without asking the server again.
 * Until the endpoint has answered once, concurrent calls wait for the first,
 * so a wrong key or URL costs one request.
 * A request slower than the timeout fails with a JudgeError.
 *
 * @param options the endpoint, the model, the API key and the limits
 * @returns the judge
 * @throws {UsageError} when the URL, the model or a limit is not usable
 * @example
 * ```ts ignore
 * import { openAiJudge } from "./openai_judge.ts";
 * const judge = openAiJudge({
 *   url: "http://localhost:11434/v1",
 *   model: "llama3.1",
 *   apiKey: Deno.env.get("OPENAI_API_KEY"),
 * });
 * await judge("Reply PASS."); // "PASS"
 * ```
 */
export function openAiJudge(options: OpenAiJudgeOptions): Judge {
  const endpoint = chatCompletionsUrl(options.url);
  const model = options.model.trim();
  if (model === "") {
    throw new UsageError("The judge needs a model name: pass --judge-model NAME");
  }
  const timeoutMs = limit("timeoutMs", options.timeoutMs, { fallback: DEFAULTS.timeoutMs, min: 1 });
  const retries = limit("retries", options.retries, {
    fallback: DEFAULTS.retries,
    min: 0,
    whole: true,
  });
  const backoffMs = limit("backoffMs", options.backoffMs, { fallback: DEFAULTS.backoffMs, min: 0 });
  const maxWaitMs = limit("maxWaitMs", options.maxWaitMs, { fallback: DEFAULTS.maxWaitMs, min: 0 });
  const shown = `${endpoint.origin}${endpoint.pathname}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey !== undefined && options.apiKey !== "") {
    headers["authorization"] = `Bearer ${options.apiKey}`;
    // Azure's classic deployment URLs take the key only in api-key.
    if (endpoint.hostname.endsWith(".azure.com")) headers["api-key"] = options.apiKey;
  }
  const request = {
    endpoint,
    shown,
    model,
    headers,
    hasKey: "authorization" in headers,
  };
  let fatal: JudgeError | undefined;
  // Until the endpoint has answered once, calls wait for the first one: a
  // wrong key or URL then costs one request, not one per call in flight.
  let first: Promise<unknown> | undefined;
  let answeredOnce = false;

  const ask = async (prompt: string): Promise<string> => {
    const body = JSON.stringify({
      model,
      messages: [{ role: "user", content: prompt }],
      temperature: 0,
      stream: false,
    });
    const outcome = await postWithRetries({
      url: endpoint,
      headers,
      body,
      retries,
      backoffMs,
      maxWaitMs,
      attemptTimeoutMs: timeoutMs,
    });
    if (outcome.kind === "gave_up") {
      throw new JudgeError(
        `Judge endpoint ${shown} kept failing (${outcome.why}) after ${outcome.attempts} ` +
          `attempt${outcome.attempts === 1 ? "" : "s"}: ${advice(outcome.status)}`,
        { status: outcome.status },
      );
    }
    if (outcome.kind !== "answered") {
      throw new JudgeError(
        `Judge endpoint ${shown} did not answer within ${timeoutMs} ms: ` +
          "raise the judge timeout or use a faster model",
      );
    }
    if (outcome.ok) return replyText(outcome.text, request);
    const said = serverMessage(outcome.text);
    const why = said === "" ? outcome.statusLine : `${outcome.statusLine}: ${said}`;
    const error = new JudgeError(refusal(outcome.status, why, request), {
      status: outcome.status,
    });
    if ([401, 403, 404].includes(outcome.status)) fatal = error;
    throw error;
  };

  return async (prompt: string): Promise<string> => {
    while (first !== undefined) await first;
    if (fatal !== undefined) throw fatal;
    const call = ask(prompt);
    if (!answeredOnce) {
      first = call.then(noop, noop).finally(() => {
        answeredOnce = true;
        first = undefined;
      });
    }
    return await call;
  };
}

function noop(): void {}

/** What to do after retries ran out, for the kind of failure it was. */
function advice(status: number | undefined): string {
  if (status === 429) {
    return "the endpoint is limiting the request rate; lower --judge-concurrency, or try later";
  }
  if (status !== undefined) return "the server is failing; try again later";
  return "check that the server is running and that the judge URL is right";
}

/**
 * Checks once, before any case runs, that a judge endpoint accepts
 * connections: a refused connection, an unknown host or a TLS failure is a
 * mistake in the URL (or a server that is not up) and would otherwise cost
 * every judge call its retries. Any HTTP answer counts as reachable (a GET on
 * a chat-completions URL is usually 404 or 405); an endpoint that does not
 * answer within `timeoutMs` is left to the calls' own timeout.
 *
 * @param url the judge URL as given (a base URL or the full chat-completions URL)
 * @param timeoutMs how long to wait for an answer
 * @throws {UsageError} when no connection can be made
 */
export async function checkJudgeReachable(url: string, timeoutMs = 5000): Promise<void> {
  const endpoint = chatCompletionsUrl(url);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(endpoint, { method: "GET", signal: controller.signal });
    await response.body?.cancel();
  } catch (error) {
    if (controller.signal.aborted) return;
    throw new UsageError(
      `--judge-url ${url}: cannot connect to ${endpoint.origin} (${fetchFailure(error)}); ` +
        "check that the server is running and that the URL (host and port) is right",
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The chat-completions URL for a base or full URL.
 *
 * @param url what the user gave
 * @returns the URL to POST to
 * @throws {UsageError} when it is not an http(s) URL
 * @example
 * ```ts
 * import { chatCompletionsUrl } from "./openai_judge.ts";
 * chatCompletionsUrl("http://localhost:11434/v1").href; // "http://localhost:11434/v1/chat/completions"
 * chatCompletionsUrl("http://localhost:8080").href; // "http://localhost:8080/v1/chat/completions"
 * ```
 */
export function chatCompletionsUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new UsageError(
      `Invalid judge URL "${url}": give a base URL such as http://localhost:11434/v1 ` +
        "or the full .../chat/completions URL",
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`Invalid judge URL "${url}": it must start with http:// or https://`);
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  parsed.pathname = path.endsWith("/chat/completions")
    ? path
    : path === ""
    ? "/v1/chat/completions"
    : `${path}/chat/completions`;
  return parsed;
}

interface Request {
  readonly endpoint: URL;
  readonly shown: string;
  readonly model: string;
  readonly headers: Record<string, string>;
  readonly hasKey: boolean;
}

/** The message of a 4xx that is not worth retrying. */
function refusal(status: number, why: string, request: Request): string {
  const at = `Judge endpoint ${request.shown}`;
  if (status === 401 || status === 403) {
    return request.hasKey
      ? `${at} refused the API key (${why}): set DBAGENTEVAL_JUDGE_API_KEY or OPENAI_API_KEY to a valid key`
      : `${at} needs an API key (${why}): set DBAGENTEVAL_JUDGE_API_KEY or OPENAI_API_KEY`;
  }
  if (status === 404) {
    return `${at} was not found (${why}): check the judge URL (a base URL such as ` +
      `http://localhost:11434/v1 or the full .../chat/completions URL) and that model ` +
      `"${request.model}" exists there`;
  }
  return `${at} rejected the request (${why})`;
}

/** The reply text of a chat-completions response. */
function replyText(text: string, request: Request): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new JudgeError(
      `Judge endpoint ${request.shown} answered with something that is not JSON: ` +
        `${JSON.stringify(text.slice(0, 80))}; is it a chat-completions endpoint?`,
    );
  }
  const parsed = v.safeParse(completionSchema, json);
  if (!parsed.success && v.is(errorBodySchema, json)) {
    // Some gateways answer 200 with an error body instead of an error status.
    throw new JudgeError(
      `Judge endpoint ${request.shown} answered with an error: ${serverMessage(text)}`,
    );
  }
  if (!parsed.success) {
    throw new JudgeError(
      `Judge endpoint ${request.shown} answered without choices[0].message.content; ` +
        "is it a chat-completions endpoint?",
    );
  }
  const message = parsed.output.choices[0]!.message;
  const content = message.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? "").join("");
  if (message.refusal) throw new JudgeError(`The judge model refused: ${message.refusal}`);
  return "";
}

/** An option's value, or its default; a UsageError when it is out of range. */
function limit(
  name: string,
  value: number | undefined,
  rule: { fallback: number; min: number; whole?: boolean },
): number {
  if (value === undefined) return rule.fallback;
  if (!Number.isFinite(value) || value < rule.min || (rule.whole && !Number.isInteger(value))) {
    const kind = rule.whole ? "a whole number" : "a number";
    throw new UsageError(
      `Invalid judge option ${name}: ${value}; it must be ${kind} of at least ${rule.min}`,
    );
  }
  return value;
}

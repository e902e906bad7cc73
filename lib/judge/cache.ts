/**
 * A judge reply cache on disk (`run --cache DIR`): the same prompt to the
 * same endpoint and model with the same options is answered from the
 * folder, so re-running a suite does not pay the judge twice. Only replies
 * are kept; a judge that throws is never cached.
 *
 * @module
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import type { Judge } from "../eval/check.ts";
import { UsageError } from "../errors.ts";

/**
 * What a cached reply is keyed by, besides the prompt.
 *
 * @example
 * ```ts
 * import type { JudgeCacheKey } from "../../mod.ts";
 * const key: JudgeCacheKey = { endpoint: "http://localhost:11434/v1", model: "llama3.1", options: { temperature: 0 } };
 * key.model; // "llama3.1"
 * ```
 */
export interface JudgeCacheKey {
  /** The judge's endpoint URL, or `module:export` for a judge function. */
  readonly endpoint: string;
  readonly model: string;
  /** Anything else that changes the reply (temperature, a system prompt). */
  readonly options?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A judge wrapped by {@link cachedJudge}, with its hit count.
 *
 * @example
 * ```ts
 * import { cachedJudge, type CachedJudge } from "../../mod.ts";
 * import * as fs from "node:fs";
 * import * as os from "node:os";
 * const dir = fs.mkdtempSync(`${os.tmpdir()}/cache-`);
 * const cached: CachedJudge = cachedJudge(() => "PASS", { dir, endpoint: "fn", model: "m" });
 * await cached.judge("Is 2 + 2 = 4?");
 * await cached.judge("Is 2 + 2 = 4?");
 * cached.hits(); // 1
 * ```
 */
export interface CachedJudge {
  readonly judge: Judge;
  /** Replies answered from the cache so far. */
  hits(): number;
}

/**
 * The cache file of one prompt: a SHA-256 of the key and the prompt.
 *
 * @param key endpoint, model and options
 * @param prompt the prompt
 * @returns the hex digest, used as the file name
 */
function digest(key: JudgeCacheKey, prompt: string): string {
  const text = JSON.stringify([key.endpoint, key.model, key.options ?? {}, prompt]);
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Wraps a judge with a reply cache in a folder (created when missing). A
 * reply is written atomically (a temporary file renamed into place), so
 * parallel runs sharing the folder never read half a file.
 *
 * @param judge the judge to ask on a miss
 * @param options the folder and the key
 * @returns the cached judge and its hit count
 * @throws {UsageError} when the folder cannot be made
 * @example
 * ```ts
 * import { cachedJudge } from "../../mod.ts";
 * import * as fs from "node:fs";
 * import * as os from "node:os";
 * let calls = 0;
 * const dir = fs.mkdtempSync(`${os.tmpdir()}/cache-`);
 * const { judge } = cachedJudge(() => `PASS ${++calls}`, { dir, endpoint: "fn", model: "m" });
 * await judge("same prompt");
 * await judge("same prompt"); // "PASS 1", from the folder
 * calls; // 1
 * ```
 */
export function cachedJudge(
  judge: Judge,
  options: JudgeCacheKey & { readonly dir: string },
): CachedJudge {
  try {
    fs.mkdirSync(options.dir, { recursive: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--cache ${options.dir}: cannot make the folder (${reason})`, {
      cause: error,
    });
  }
  let hits = 0;
  const wrapped: Judge = async (prompt) => {
    const file = path.join(options.dir, `${digest(options, prompt)}.json`);
    try {
      const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { reply?: unknown };
      if (typeof saved.reply === "string") {
        hits++;
        return saved.reply;
      }
    } catch {
      // no entry yet (or a broken one, which the next reply overwrites)
    }
    const reply = await judge(prompt); // a throw is not cached
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ reply }));
    fs.renameSync(temp, file);
    return reply;
  };
  return { judge: wrapped, hits: () => hits };
}

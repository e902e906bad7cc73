/**
 * The PGlite host: the process PGlite's engine runs in
 * (`dbagenteval __pglite-host TOKEN`), started and killed by
 * pglite_process.ts. PGlite is PostgreSQL compiled to WebAssembly, and a
 * statement runs on the thread that called it until it ends: a cross join
 * that runs for hours, `pg_sleep`, would hold that thread, Ctrl-C and every
 * other case with it. Here it holds only this process, which the run kills
 * at the statement's deadline, or when it uses too much memory.
 *
 * Protocol: one JSON request per line on stdin, one reply per line on
 * stdout prefixed by TOKEN and a space (lines without it are PGlite's own
 * output, which the parent ignores); values cross exactly
 * (lib/sqlite/value_json.ts). A host holds one engine or a few (the
 * counterexample search's given database and its sandbox share one: the
 * WebAssembly is compiled once per process). Requests:
 *
 * - `{ id, op: "open", source, tempFileLimitKb, resultLimitBytes, dumpTo? }`
 *   starts an engine (`dumpTo`: when that took more than 1.5 s, also write
 *   its files there as a tar file, for a faster start next time); reply
 *   `{ id, engine, engines, dumped }`: the engine's number, and the
 *   WebAssembly engines its start made (one: PGlite, no initdb);
 * - `{ id, op: "query", engine, sql }` runs one read-only statement; reply
 *   `{ id, columns, rows }`;
 * - `{ id, op: "exec", engine, sql }` runs a script of statements; reply
 *   `{ id, results: [{ columns, rows }] }`;
 * - `{ id, op: "close", engine }` stops an engine.
 *
 * A failure is `{ id, error: { message, code?, script? } }`. The host ends
 * when stdin closes, or within half a second of its parent ending.
 *
 * @module
 */
import process from "node:process";
import * as readline from "node:readline";
import { decodeJsonAnywhere, encodeJsonAnywhere } from "../sqlite/value_json.ts";
import { watchParent } from "../host_process.ts";
import { type EngineRows, type EngineSource, PgliteEngine, ScriptError } from "./_pglite_engine.ts";
import { rowWeight, tooLargeMessage } from "./result_limit.ts";

/** A request, as the parent sends it. */
export interface HostRequest {
  readonly id: number;
  readonly op: "open" | "query" | "exec" | "close";
  readonly engine?: number;
  readonly sql?: string;
  readonly source?: EngineSource;
  readonly tempFileLimitKb?: number;
  readonly resultLimitBytes?: number;
  readonly dumpTo?: string;
}

/** A start that took longer than this writes its database as a tar file, for the next start. */
const DUMP_AFTER_MS = 1500;

/** The code of a result past the limit. */
export const RESULT_TOO_LARGE = "RESULT_TOO_LARGE";

class TooLarge extends Error {
  readonly code = RESULT_TOO_LARGE;
}

function weighed(results: readonly EngineRows[], limit: number): void {
  let bytes = 0;
  for (const r of results) {
    for (const row of r.rows) {
      bytes += rowWeight(row);
      if (bytes > limit) throw new TooLarge(tooLargeMessage(limit));
    }
  }
}

/**
 * Runs the host until stdin closes.
 *
 * @param token the prefix of every reply line
 * @example
 * ```ts ignore
 * import { servePglite } from "./pglite_host.ts";
 * await servePglite(process.argv[3]!); // the entry point of `dbagenteval __pglite-host TOKEN`
 * ```
 */
export async function servePglite(token: string): Promise<void> {
  watchParent();
  const reply = (data: unknown) => process.stdout.write(`${token} ${encodeJsonAnywhere(data)}\n`);
  const engines = new Map<number, PgliteEngine>();
  let next = 0;
  let limit = Number.POSITIVE_INFINITY;
  const answer = async (request: HostRequest): Promise<unknown> => {
    if (request.op === "open") {
      let made = 0;
      const instantiate = WebAssembly.instantiate;
      WebAssembly.instantiate = ((...args: Parameters<typeof instantiate>) => {
        made++;
        return instantiate(...args);
      }) as typeof instantiate;
      const started = performance.now();
      let engine: PgliteEngine;
      try {
        engine = await PgliteEngine.open(request.source!, request.tempFileLimitKb!);
      } finally {
        WebAssembly.instantiate = instantiate;
      }
      limit = request.resultLimitBytes ?? limit;
      // Worth it when loading again would take longer than starting from the tar file.
      const dumped = request.dumpTo !== undefined && performance.now() - started > DUMP_AFTER_MS;
      if (dumped) await engine.dump(request.dumpTo!);
      engines.set(next, engine);
      return { engine: next++, engines: made, dumped };
    }
    const engine = engines.get(request.engine ?? -1);
    if (engine === undefined) throw new Error(`no engine ${request.engine} in this host`);
    if (request.op === "close") {
      engines.delete(request.engine!);
      await engine.close();
      return {};
    }
    if (request.op === "query") {
      const result = await engine.query(request.sql!);
      weighed([result], limit);
      return result;
    }
    const results = await engine.exec(request.sql!);
    weighed(results, limit);
    return { results };
  };
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const request = decodeJsonAnywhere(line) as HostRequest;
    try {
      reply({ id: request.id, ...(await answer(request)) as object });
    } catch (e) {
      const error = e as { message?: unknown; code?: unknown };
      reply({
        id: request.id,
        error: {
          message: typeof error?.message === "string" ? error.message : String(e),
          ...(typeof error?.code === "string" ? { code: error.code } : {}),
          ...(e instanceof ScriptError ? { script: true } : {}),
        },
      });
    }
  }
  for (const engine of engines.values()) await engine.close();
}

/**
 * PGlite in this process, for where no host process can start (this module
 * was imported from a URL, so there is no CLI to run): the same requests as
 * a host, but a statement runs on this thread until it ends, whatever its
 * deadline says. Only the library meets it; the CLI always has a host.
 *
 * @module
 */
import { type EngineSource, PgliteEngine } from "./_pglite_engine.ts";
import type { HostLimits, PgliteHost } from "./pglite_process.ts";
import { rowWeight, tooLargeMessage } from "./result_limit.ts";

/** An engine in this process. */
export class LocalPglite implements PgliteHost {
  readonly #engine: PgliteEngine;
  readonly #limits: HostLimits;
  #alive = true;
  readonly engines = 1;
  readonly dumped = false;
  /** Not watched in this process. */
  readonly bloated = false;

  private constructor(engine: PgliteEngine, limits: HostLimits) {
    this.#engine = engine;
    this.#limits = limits;
  }

  /**
   * Starts the engine.
   *
   * @param source what it starts from
   * @param limits its temp file and result limits (memory is not watched here)
   * @param _dumpTo not written: nothing here is started again
   * @returns the engine
   */
  static async start(
    source: EngineSource,
    limits: HostLimits,
    _dumpTo?: string,
  ): Promise<LocalPglite> {
    return new LocalPglite(await PgliteEngine.open(source, limits.tempFileBytes / 1024), limits);
  }

  /** Whether it is open. */
  get alive(): boolean {
    return this.#alive;
  }

  /** {@inheritDoc PgliteHost.request} */
  async request(op: "query" | "exec", sql: string): Promise<Record<string, unknown>> {
    let results;
    try {
      results = op === "query" ? [await this.#engine.query(sql)] : await this.#engine.exec(sql);
    } catch (e) {
      const error = e as { message?: unknown; code?: unknown };
      throw new Error(String(error?.message ?? e), {
        cause: {
          message: String(error?.message ?? e),
          ...(typeof error?.code === "string" ? { code: error.code } : {}),
        },
      });
    }
    let bytes = 0;
    for (const row of results.flatMap((r) => r.rows)) {
      bytes += rowWeight(row);
      if (bytes > this.#limits.resultBytes) {
        const message = tooLargeMessage(this.#limits.resultBytes);
        throw new Error(message, { cause: { message } });
      }
    }
    return op === "query" ? { ...results[0] } : { results };
  }

  /** {@inheritDoc PgliteHost.close} */
  async close(): Promise<void> {
    this.#alive = false;
    await this.#engine.close();
  }
}

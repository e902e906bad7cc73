/**
 * What every agent transport returns: an agent the suite calls, and a
 * way to release what the transport holds (worker processes) when the run
 * ends.
 *
 * @module
 */
import type { AgentContext } from "../eval/agent.ts";

/**
 * An agent behind a transport: call it like any agent, then `close()` it.
 *
 * @example
 * ```ts
 * import { type ClosableAgent, defineCase, runSuite } from "../../mod.ts";
 * const agent: ClosableAgent = Object.assign(() => ({ answer: "2" }), {
 *   close: () => Promise.resolve(),
 * });
 * try {
 *   (await runSuite([defineCase({ question: "1 + 1?" })], agent)).total; // 1
 * } finally {
 *   await agent.close();
 * }
 * ```
 */
export interface ClosableAgent {
  /**
   * Asks one question.
   *
   * @param question the case's question
   * @param context the case's id, tags, database copy and abort signal
   * @returns what the agent replied, for toTrace()
   */
  (question: string, context: AgentContext): unknown;
  /** Releases what the transport holds; no agent process is left after it resolves. */
  close(): Promise<void>;
}

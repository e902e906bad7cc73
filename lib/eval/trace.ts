/**
 * What an agent did for one question: its stages, in order.
 *
 * @module
 */
import type { SqliteRow } from "../sqlite/value.ts";

/**
 * The kinds of stage a trace can record, in pipeline order.
 *
 * @example
 * ```ts
 * import { STAGE_KINDS } from "./trace.ts";
 * STAGE_KINDS.includes("generate"); // true
 * ```
 */
export const STAGE_KINDS = ["route", "plan", "retrieve", "generate", "execute", "answer"] as const;

/**
 * One of {@link STAGE_KINDS}.
 *
 * @example
 * ```ts
 * import { type StageKind, Trace } from "./trace.ts";
 * const trace = Trace.simple("How many?", { sql: "SELECT 2 AS n", rows: [{ n: 2 }], answer: "2" });
 * const kinds: StageKind[] = trace.stages.map((s) => s.kind); // ["generate", "execute", "answer"]
 * ```
 */
export type StageKind = typeof STAGE_KINDS[number];

/**
 * A row as an agent returns it: a plain object of column values.
 *
 * @example
 * ```ts
 * import { type Row, Trace } from "./trace.ts";
 * // rows as a driver returns them; any plain object of column values
 * const rows: Row[] = [{ id: 1, created: new Date(0), tags: ["a", "b"] }];
 * Trace.simple("Newest?", { rows }).lastOf("execute")?.rows?.length; // 1
 * ```
 */
export type Row = SqliteRow | Record<string, unknown>;

/**
 * One step of a trace. `name` defaults to the kind.
 *
 * @example
 * ```ts
 * import { type Stage, Trace } from "./trace.ts";
 * const trace = new Trace("Which tables?", [{ kind: "retrieve", output: ["orders"] }]);
 * const stage: Stage | undefined = trace.stage("retrieve");
 * stage; // { kind: "retrieve", output: ["orders"], name: "retrieve" }
 * ```
 */
export interface Stage {
  readonly kind: StageKind;
  readonly name: string;
  /** The stage's result: a choice, a plan, a list of names, SQL text or the answer. */
  readonly output?: unknown;
  /** For execute: the rows the SQL returned. */
  readonly rows?: readonly Row[];
  /**
   * For execute: the true column names, in order, when a name repeats (the
   * rows then key the later ones `Name (2)`, ...; see lib/row_set.ts).
   */
  readonly columns?: readonly string[];
  /** The error text, when the stage failed. */
  readonly error?: string;
}

/**
 * A stage as a user writes it: `name` is optional.
 *
 * @example
 * ```ts
 * import { type StageInput, Trace } from "./trace.ts";
 * const stages: StageInput[] = [
 *   { kind: "retrieve", name: "schema_lookup", output: ["orders"] },
 *   { kind: "generate", output: "SELECT count(*) AS n FROM orders" },
 *   { kind: "execute", rows: [{ n: 3 }] },
 *   { kind: "answer", output: "3 orders." },
 * ];
 * const trace = new Trace("How many orders?", stages);
 * trace.stage("schema_lookup")?.output; // ["orders"]
 * ```
 */
export interface StageInput {
  readonly kind: StageKind;
  readonly name?: string;
  readonly output?: unknown;
  readonly rows?: readonly Row[];
  /** The true column names when a name repeats; see {@link Stage.columns}. */
  readonly columns?: readonly string[];
  readonly error?: string;
}

/**
 * What {@link Trace.simple} takes.
 *
 * @example
 * ```ts
 * import { type SimpleTraceInput, Trace } from "./trace.ts";
 * const input: SimpleTraceInput = { sql: "SELECT * FROM nope", error: "no such table: nope" };
 * Trace.simple("Anything?", input).stages.map((s) => s.kind); // ["generate", "execute"]
 * ```
 */
export interface SimpleTraceInput {
  readonly answer?: string;
  readonly sql?: string;
  readonly rows?: readonly Row[];
  /** The true column names when a name repeats; see {@link Stage.columns}. */
  readonly columns?: readonly string[];
  readonly error?: string;
}

/**
 * A record of what the agent did for one question.
 *
 * @example
 * ```ts
 * import { Trace } from "./trace.ts";
 * const trace = Trace.simple("How many?", { sql: "SELECT 2 AS total", rows: [{ total: 2 }], answer: "2" });
 * trace.lastOf("execute")?.rows; // [{ total: 2 }]
 * ```
 */
export class Trace {
  /** The question the agent was asked. */
  readonly question: string;
  /** The stages, in the order the agent ran them. */
  readonly stages: readonly Stage[];

  /**
   * @param question the question
   * @param stages the stages, in order; a stage's name defaults to its kind
   */
  constructor(question: string, stages: readonly StageInput[] = []) {
    this.question = question;
    this.stages = stages.map((s) => ({ ...s, name: s.name ?? s.kind }));
  }

  /**
   * A trace of up to three stages: generate (the SQL), execute (rows or
   * error) and answer, each recorded only when given.
   *
   * @param question the question
   * @param input what the agent produced
   * @returns the trace
   */
  static simple(question: string, input: SimpleTraceInput = {}): Trace {
    const stages: StageInput[] = [];
    if (input.sql !== undefined) stages.push({ kind: "generate", output: input.sql });
    if (input.rows !== undefined || (input.error !== undefined && input.sql !== undefined)) {
      stages.push({
        kind: "execute",
        ...(input.rows !== undefined ? { rows: input.rows } : {}),
        ...(input.rows !== undefined && input.columns !== undefined
          ? { columns: input.columns }
          : {}),
        ...(input.error !== undefined ? { error: input.error } : {}),
      });
    } else if (input.error !== undefined) {
      stages.push({ kind: "answer", error: input.error });
    }
    if (input.answer !== undefined) stages.push({ kind: "answer", output: input.answer });
    return new Trace(question, stages);
  }

  /**
   * The last stage of a kind.
   *
   * @param kind the stage kind
   * @returns the stage, or undefined when the trace has none
   */
  lastOf(kind: StageKind): Stage | undefined {
    for (let i = this.stages.length - 1; i >= 0; i--) {
      if (this.stages[i]!.kind === kind) return this.stages[i];
    }
    return undefined;
  }

  /**
   * Every stage of a kind, in order.
   *
   * @param kind the stage kind
   * @returns the stages
   */
  allOf(kind: StageKind): Stage[] {
    return this.stages.filter((s) => s.kind === kind);
  }

  /**
   * The last stage with a name.
   *
   * @param name the stage name
   * @returns the stage, or undefined
   */
  stage(name: string): Stage | undefined {
    for (let i = this.stages.length - 1; i >= 0; i--) {
      if (this.stages[i]!.name === name) return this.stages[i];
    }
    return undefined;
  }

  /**
   * Where a stage sits in the trace, for ordering checks; stages the trace
   * does not have sort by their kind's place in {@link STAGE_KINDS}, after
   * the ones it has.
   *
   * @param name a stage name or kind
   * @returns a sort key
   */
  order(name: string): number {
    const i = this.stages.findIndex((s) => s.name === name);
    if (i >= 0) return i;
    const j = this.stages.findIndex((s) => s.kind === name);
    if (j >= 0) return j;
    const k = STAGE_KINDS.indexOf(name as StageKind);
    return this.stages.length + (k >= 0 ? k : STAGE_KINDS.length);
  }
}

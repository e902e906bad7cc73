/**
 * A test case, as read from a cases file (fields keep the documented spelling).
 *
 * @module
 */
import type { Row } from "./trace.ts";

/**
 * Hand-written expectations: `rows` (one result or several acceptable ones), or a stage name.
 *
 * @example
 * ```ts
 * import { acceptableResults } from "./cases.ts";
 * import type { Expect } from "./case.ts";
 * // either order of the two rows is right
 * const expect: Expect = { rows: [[{ name: "alice" }, { name: "bob" }], [{ name: "bob" }, { name: "alice" }]] };
 * acceptableResults(expect)?.length; // 2
 * ```
 */
export interface Expect {
  /** One acceptable result (a list of rows) or several (a list of lists). */
  readonly rows?: readonly Row[] | readonly (readonly Row[])[];
  readonly [stageName: string]: unknown;
}

/**
 * One test: a question and how to know the answer is right.
 *
 * @example
 * ```ts
 * import { parseCases } from "./cases.ts";
 * import type { TestCase } from "./case.ts";
 * const yaml = "- question: How many users?\n  reference_sql: SELECT count(*) FROM users\n";
 * const [testCase]: TestCase[] = parseCases(yaml, "cases.yaml");
 * testCase; // { id: "how-many-users", question: "How many users?", reference_sql: "SELECT count(*) FROM users", tags: [], ordered: false, precision: 2 }
 * ```
 */
export interface TestCase {
  readonly id: string;
  readonly question: string;
  readonly reference_sql?: string;
  readonly expect?: Expect;
  readonly tags: readonly string[];
  readonly ordered: boolean;
  readonly precision: number;
  /**
   * true: the agent's rows may have no column beyond the expected ones
   * (`run --strict-columns` sets it for every case that does not say).
   */
  readonly strict_columns?: boolean;
  /** false: never search this case for a counterexample (run --counterexamples). */
  readonly counterexample?: boolean;
  /** The tenant this case asks as: tenant_filter wants this value (over its own `value`). */
  readonly tenant?: string;
  /**
   * The database the case asks about, by name (a benchmark's `db_id`): its
   * reference SQL, the agent's SQL and the rules run on it (`run --db-dir`).
   */
  readonly db?: string;
  /** What the agent is told beside the question (BIRD's `evidence`): `context.evidence`. */
  readonly evidence?: string;
}

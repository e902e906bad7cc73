/**
 * A test case, as read from a cases file (fields keep the spec's spelling).
 *
 * @module
 */
import type { Row } from "./trace.ts";

/** Hand-written expectations: `rows` (one result or several acceptable ones), or a stage name. */
export interface Expect {
  /** One acceptable result (a list of rows) or several (a list of lists). */
  readonly rows?: readonly Row[] | readonly (readonly Row[])[];
  readonly [stageName: string]: unknown;
}

/** One test: a question and how to know the answer is right. */
export interface TestCase {
  readonly id: string;
  readonly question: string;
  readonly reference_sql?: string;
  readonly expect?: Expect;
  readonly tags: readonly string[];
  readonly ordered: boolean;
  readonly precision: number;
}

/**
 * The built-in checks every case gets, in the order they run.
 *
 * @module
 */
import type { Check } from "../check.ts";
import { Expected } from "./expected.ts";
import { NoError } from "./no_error.ts";
import { Recall } from "./recall.ts";
import { ReferenceNumbers } from "./reference_numbers.ts";
import { ReferenceRows } from "./reference_rows.ts";
import { RowsMatch } from "./rows_match.ts";

/**
 * no_error, expected, recall, rows_match, reference_rows, reference_numbers.
 * Each says nothing when the case or trace gives it nothing to check.
 *
 * @returns fresh instances
 * @example
 * ```ts
 * import { builtinChecks } from "./builtin.ts";
 * builtinChecks().map((c) => c.name); // ["no_error", "expected", ...]
 * ```
 */
export function builtinChecks(): Check[] {
  return [
    new NoError(),
    new Expected(),
    new Recall(),
    new RowsMatch(),
    new ReferenceRows(),
    new ReferenceNumbers(),
  ];
}

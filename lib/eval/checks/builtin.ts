/**
 * The built-in checks every case gets, in the order they run.
 *
 * @module
 */
import type { Check } from "../check.ts";
import { DbChange } from "./db_change.ts";
import { DbNoChange } from "./db_no_change.ts";
import { DbUnchanged } from "./db_unchanged.ts";
import { Expected } from "./expected.ts";
import { NoError } from "./no_error.ts";
import { Recall } from "./recall.ts";
import { ReferenceNumbers } from "./reference_numbers.ts";
import { ReferenceRows } from "./reference_rows.ts";
import { RowsMatch } from "./rows_match.ts";

/**
 * no_error, expected, recall, rows_match, reference_rows, reference_numbers,
 * and the database side-effect checks db_change, db_unchanged, db_no_change.
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
    new DbChange(),
    new DbUnchanged(),
    new DbNoChange(),
  ];
}

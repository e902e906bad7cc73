/**
 * The valibot schema of the diff document, for reading it back from JSON.
 * Row values are decoded as they are checked: `{"$bigint": "..."}`,
 * `{"$blob": "..."}` and `{"$real": "..."}` become a bigint, a Uint8Array and
 * a number (lib/sqlite/value_json.ts).
 *
 * @module
 */
import * as v from "valibot";
import { emptyRow, type SqliteRow, type SqliteValue } from "../sqlite/value.ts";
import { decodeValue, isEncodedValue } from "../sqlite/value_json.ts";
import { DIFF_FORMAT_VERSION } from "./types.ts";

/**
 * A row value, decoded here and only here: a row or key is a record whose
 * column names are free, so a column called "$bigint" is a column, not a
 * value to decode.
 */
const isValue = (x: unknown): boolean =>
  x === null || typeof x === "number" || typeof x === "string" || isEncodedValue(x);
const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);
/**
 * A row: its columns are read one by one into a row without a prototype
 * (valibot's record() drops keys such as "__proto__" and "constructor",
 * which are fine column names).
 */
const row = v.pipe(
  v.custom<Record<string, unknown>>(isRecord, "expected a row (an object of column values)"),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const input = dataset.value;
    const bad = Object.keys(input).find((k) => !isValue(input[k]));
    if (bad === undefined) return;
    addIssue({
      message: "expected a SQLite value (null, number, string, {$bigint}, {$blob} or {$real})",
      path: [{ type: "object", origin: "value", input, key: bad, value: input[bad] }],
    });
  }),
  v.transform((x): SqliteRow => {
    const out = emptyRow();
    for (const k of Object.keys(x)) out[k] = decodeValue(x[k]) as SqliteValue;
    return out;
  }),
);
const status = v.picklist(["added", "removed", "changed", "unchanged"]);
const strings = v.array(v.string());

const column = v.object({
  name: v.string(),
  type: v.string(),
  not_null: v.boolean(),
  default: v.nullable(v.string()),
  primary_key: v.number(),
  hidden: v.number(),
});

const table = v.object({
  name: v.string(),
  status,
  schema_status: status,
  data_status: v.picklist(["changed", "unchanged"]),
  key: strings,
  key_kind: v.picklist(["primary_key", "rowid", "none"]),
  compared_columns: strings,
  ignored_columns: v.optional(strings),
  columns: v.object({
    added: v.array(column),
    removed: v.array(column),
    changed: v.array(v.object({
      name: v.string(),
      before: column,
      after: column,
      changes: v.array(v.picklist(["type", "not_null", "default", "primary_key", "hidden"])),
    })),
  }),
  rows: v.object({
    added: v.array(v.object({ key: v.nullable(row), row })),
    removed: v.array(v.object({ key: v.nullable(row), row })),
    changed: v.array(v.object({ key: row, before: row, after: row, changed_columns: strings })),
  }),
  counts: v.object({
    added: v.number(),
    removed: v.number(),
    changed: v.number(),
    changed_cells: v.optional(v.number()),
  }),
  truncated: v.boolean(),
  bytes_cut: v.optional(v.literal(true)),
  sql_before: v.nullable(v.string()),
  sql_after: v.nullable(v.string()),
});

const database = v.object({
  name: v.string(),
  path: v.string(),
  before_path: v.nullable(v.string()),
  after_path: v.nullable(v.string()),
  exists_before: v.boolean(),
  exists_after: v.boolean(),
  status,
  tables: v.array(table),
  objects: v.array(v.object({
    type: v.picklist(["index", "view", "trigger"]),
    name: v.string(),
    table: v.string(),
    status: v.picklist(["added", "removed", "changed"]),
    sql_before: v.nullable(v.string()),
    sql_after: v.nullable(v.string()),
  })),
  skipped: v.array(v.object({ name: v.string(), reason: v.string() })),
  error: v.nullable(v.string()),
});

/** The whole document. */
export const diffSchema = v.object({
  version: v.literal(DIFF_FORMAT_VERSION),
  settings: v.object({
    include_schema: v.boolean(),
    include_data: v.boolean(),
    max_rows: v.number(),
    max_bytes: v.optional(v.number()),
    tables: v.nullable(strings),
    pair_by: v.optional(v.literal("rowid")),
    keys: v.optional(v.record(v.string(), strings)),
    ignore: v.optional(strings),
    ignore_tables: v.optional(strings),
  }),
  databases: v.array(database),
});

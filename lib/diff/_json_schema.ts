/**
 * The valibot schema of the diff document, for reading it back from JSON.
 * Values arrive already decoded (see json.ts), so a row value is one of the
 * SqliteValue kinds.
 *
 * @module
 */
import * as v from "valibot";
import type { SqliteValue } from "../sqlite/value.ts";
import { DIFF_FORMAT_VERSION } from "./types.ts";

const value = v.custom<SqliteValue>(
  (x) =>
    x === null || typeof x === "number" || typeof x === "bigint" || typeof x === "string" ||
    x instanceof Uint8Array,
  "expected a SQLite value (null, number, string, {$bigint}, {$blob} or {$real})",
);
const row = v.record(v.string(), value);
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
  counts: v.object({ added: v.number(), removed: v.number(), changed: v.number() }),
  truncated: v.boolean(),
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
    tables: v.nullable(strings),
  }),
  databases: v.array(database),
});

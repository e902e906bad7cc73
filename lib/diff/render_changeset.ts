/**
 * `db diff --changeset FILE`: the row changes as a SQLite session changeset
 * (what `sqldiff --changeset` writes and `sqlite3changeset_apply` reads),
 * written as the diff streams.
 *
 * The format (sqlite3session.c): per table a header `'T'`, the column count
 * (varint), one byte per column (its 1-based position in the primary key,
 * 0 when not in it) and the table name with a NUL; then per row an opcode
 * (INSERT 18, UPDATE 23, DELETE 9), an "indirect" byte 0 and records of
 * values: 0 undefined, 1 INTEGER (8 bytes big-endian), 2 REAL (8 bytes
 * IEEE big-endian), 3 TEXT and 4 BLOB (varint length, bytes), 5 NULL. A
 * DELETE carries the old row, an INSERT the new one, an UPDATE the old key
 * and old values of the changed columns, then the new values of the changed
 * columns (everything else undefined). A row whose key changed (a NOCASE key
 * that changed case) is a DELETE and an INSERT: an UPDATE cannot change the
 * key.
 *
 * A changeset holds row changes only: tables added, removed or whose schema
 * changed, tables without a primary key, with generated columns, and rows
 * whose key holds NULL cannot be expressed; they are left out and named by
 * {@link ChangesetRenderer.omitted}.
 *
 * @module
 */
import { encodeSqliteText } from "../sqlite/text.ts";
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import type { DiffListener, RowEvent, TableStart } from "./listener.ts";
import { foldName } from "./names.ts";
import { normalizeSql, type TableSchema } from "./schema.ts";

const INSERT = 18;
const UPDATE = 23;
const DELETE = 9;

/** Where the bytes go. */
export interface ChangesetSink {
  write(bytes: Uint8Array): void;
}

/** SQLite's varint (1 to 9 bytes, big-endian groups of 7 bits). */
function varint(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  let v = n;
  while (v > 0) {
    out.unshift(v & 0x7f);
    v = Math.floor(v / 128);
  }
  for (let i = 0; i < out.length - 1; i++) out[i]! |= 0x80;
  return out;
}

/** One value of a record; `undefined` is the "not present" marker. */
function value(v: SqliteValue | undefined): Uint8Array {
  if (v === undefined) return new Uint8Array([0]);
  if (v === null) return new Uint8Array([5]);
  if (typeof v === "string" || v instanceof Uint8Array) {
    const bytes = typeof v === "string" ? encodeSqliteText(v) : v;
    const len = varint(bytes.length);
    const out = new Uint8Array(1 + len.length + bytes.length);
    out[0] = typeof v === "string" ? 3 : 4;
    out.set(len, 1);
    out.set(bytes, 1 + len.length);
    return out;
  }
  const out = new Uint8Array(9);
  const view = new DataView(out.buffer);
  if (typeof v === "bigint") {
    out[0] = 1;
    view.setBigInt64(1, v);
  } else if (Number.isSafeInteger(v) && !Object.is(v, -0)) {
    out[0] = 1;
    view.setBigInt64(1, BigInt(v));
  } else {
    out[0] = 2;
    view.setFloat64(1, v);
  }
  return out;
}

/** What the renderer knows of the table being compared. */
interface Current {
  readonly table: TableSchema;
  readonly columns: readonly string[];
  readonly key: ReadonlySet<string>;
  headerWritten: boolean;
}

/**
 * Writes the changeset as the diff streams; pass it to `streamSqliteDiff`.
 *
 * @example
 * ```ts
 * import { streamSqliteDiff } from "./diff_sqlite.ts";
 * import { ChangesetRenderer } from "./render_changeset.ts";
 * const chunks: Uint8Array[] = [];
 * const file = "examples/db_agent/users.db";
 * const renderer = new ChangesetRenderer({ write: (b) => void chunks.push(b) });
 * await streamSqliteDiff(file, file, { maxRows: 0 }, renderer);
 * chunks.length; // 0: nothing changed
 * ```
 */
export class ChangesetRenderer implements DiffListener {
  readonly #sink: ChangesetSink;
  #current: Current | null = null;
  /** Tables (and why) whose changes a changeset cannot carry. */
  readonly omitted: { table: string; reason: string }[] = [];

  /** @param sink where to write */
  constructor(sink: ChangesetSink) {
    this.#sink = sink;
  }

  table(t: TableStart): void {
    this.#current = null;
    const { before, after } = t;
    const omit = (reason: string): void => void this.omitted.push({ table: t.name, reason });
    if (t.virtual) return;
    if (before === null || after === null) {
      return omit(
        before === null ? "added: a changeset has no schema" : "removed: a changeset has no schema",
      );
    }
    if (normalizeSql(before.sql) !== normalizeSql(after.sql)) {
      return omit("its schema changed: a changeset has no schema");
    }
    if (after.keyKind === "none" || !after.columns.some((c) => c.primary_key > 0)) {
      return omit("no primary key");
    }
    if (after.columns.some((c) => c.hidden !== 0)) return omit("generated or hidden columns");
    const columns = after.columns.map((c) => c.name);
    this.#current = {
      table: after,
      columns,
      key: new Set(after.key.map(foldName)),
      headerWritten: false,
    };
  }

  row(event: RowEvent): void {
    const cur = this.#current;
    if (cur === null) return;
    const { change } = event;
    if (change.key === null || Object.values(change.key).some((v) => v === null)) {
      if (!this.omitted.some((o) => o.table === cur.table.name && o.reason.startsWith("rows"))) {
        this.omitted.push({ table: cur.table.name, reason: "rows whose key is NULL" });
      }
      return;
    }
    const parts: Uint8Array[] = [];
    const record = (row: SqliteRow, present: (c: string) => boolean): void => {
      const byFold = new Map(Object.keys(row).map((k) => [foldName(k), k]));
      for (const c of cur.columns) {
        const name = byFold.get(foldName(c));
        parts.push(value(name !== undefined && present(c) ? row[name] ?? null : undefined));
      }
    };
    const all = (): boolean => true;
    if (event.kind === "added") {
      parts.push(new Uint8Array([INSERT, 0]));
      record(event.change.row, all);
    } else if (event.kind === "removed") {
      parts.push(new Uint8Array([DELETE, 0]));
      record(event.change.row, all);
    } else {
      const c = event.change;
      const changed = new Set(c.changed_columns.map(foldName));
      if ([...changed].some((k) => cur.key.has(k))) {
        parts.push(new Uint8Array([DELETE, 0]));
        record(c.before, all);
        parts.push(new Uint8Array([INSERT, 0]));
        record(c.after, all);
      } else {
        parts.push(new Uint8Array([UPDATE, 0]));
        record(c.before, (col) => cur.key.has(foldName(col)) || changed.has(foldName(col)));
        record(c.after, (col) => changed.has(foldName(col)));
      }
    }
    if (!cur.headerWritten) {
      cur.headerWritten = true;
      const name = new TextEncoder().encode(cur.table.name);
      const pk = cur.table.columns.map((c) => cur.key.has(foldName(c.name)) ? c.primary_key : 0);
      // A rowid table keyed by its INTEGER PRIMARY KEY: that column is key #1.
      this.#sink.write(
        new Uint8Array([0x54, ...varint(cur.columns.length), ...pk, ...name, 0]),
      );
    }
    for (const p of parts) this.#sink.write(p);
  }
}

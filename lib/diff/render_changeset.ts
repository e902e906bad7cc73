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
import { encodeSqliteText, hasEscapedBytes } from "../sqlite/text.ts";
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import type { DiffListener, RowEvent, TableStart } from "./listener.ts";
import { foldName } from "./names.ts";
import { normalizeSql, type SideSchema, type TableSchema } from "./schema.ts";
import { varintBytes } from "../sqlite_format/record.ts";

const INSERT = 18;
const UPDATE = 23;
const DELETE = 9;

/** Where the bytes go. */
export interface ChangesetSink {
  write(bytes: Uint8Array): void;
}

/**
 * The bytes of one row change, in a buffer reused from row to row: a 995-column
 * row was a Uint8Array (and a DataView, a BigInt) per value.
 */
class RecordBytes {
  #bytes = new Uint8Array(1 << 16);
  #view = new DataView(this.#bytes.buffer);
  #used = 0;

  /** Starts a row change. */
  clear(): void {
    this.#used = 0;
  }

  /** The bytes written since {@link clear} (a view of the buffer, valid until the next write). */
  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#used);
  }

  #room(n: number): void {
    if (this.#used + n <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * this.#bytes.length, this.#used + n));
    grown.set(this.#bytes.subarray(0, this.#used));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }

  byte(b: number): void {
    this.#room(1);
    this.#bytes[this.#used++] = b;
  }

  #varint(n: number): void {
    if (n < 0x80) return this.byte(n);
    const groups = varintBytes(n);
    this.#room(groups.length);
    for (const g of groups) this.#bytes[this.#used++] = g;
  }

  /** One value of a record; `undefined` is the "not present" marker. */
  value(v: SqliteValue | undefined): void {
    if (v === undefined) return this.byte(0);
    if (v === null) return this.byte(5);
    if (typeof v === "string" || v instanceof Uint8Array) {
      const bytes = typeof v === "string" ? encodeSqliteText(v) : v;
      this.byte(typeof v === "string" ? 3 : 4);
      this.#varint(bytes.length);
      this.#room(bytes.length);
      this.#bytes.set(bytes, this.#used);
      this.#used += bytes.length;
      return;
    }
    this.#room(9);
    const at = this.#used + 1;
    if (typeof v === "bigint") {
      this.#bytes[this.#used] = 1;
      this.#view.setBigInt64(at, v);
    } else if (Number.isSafeInteger(v) && !Object.is(v, -0)) {
      // Two 32-bit halves, two's complement: no BigInt per value.
      const high = Math.floor(v / 0x1_0000_0000);
      this.#bytes[this.#used] = 1;
      this.#view.setInt32(at, high);
      this.#view.setUint32(at + 4, v - high * 0x1_0000_0000);
    } else {
      this.#bytes[this.#used] = 2;
      this.#view.setFloat64(at, v);
    }
    this.#used += 9;
  }
}

/** What the renderer knows of the table being compared. */
interface Current {
  readonly table: TableSchema;
  readonly columns: readonly string[];
  /** `columns` folded (foldName). */
  readonly folded: readonly string[];
  /** Where each folded column name is in `columns`. */
  readonly at: ReadonlyMap<string, number>;
  readonly key: ReadonlySet<string>;
  /** Whether each column is in the key. */
  readonly inKey: readonly boolean[];
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
  readonly #out = new RecordBytes();
  /** Tables (and why) whose changes a changeset cannot carry. */
  readonly omitted: { table: string; reason: string }[] = [];

  /** The database the changeset is applied to (the before one) is UTF-16. */
  #utf16 = false;

  /** @param sink where to write */
  constructor(sink: ChangesetSink) {
    this.#sink = sink;
  }

  start(sides: { readonly before: SideSchema | null; readonly after: SideSchema | null }): void {
    this.#utf16 = (sides.before?.encoding ?? "utf-8") !== "utf-8";
  }

  /**
   * Whether a changeset carries `v` exactly into the before database. Its
   * text is UTF-8 bytes: a UTF-8 database takes them as they are (escaped
   * bytes too), but SQLite turns an unpaired surrogate's UTF-8 into U+FFFD,
   * both when it changes the encoding for a UTF-16 database and in UTF-8
   * (which has no form for one).
   */
  #carries(v: SqliteValue): boolean {
    if (typeof v !== "string" || v.isWellFormed()) return true;
    return !this.#utf16 && hasEscapedBytes(v) &&
      v.replace(/(?<![\ud800-\udbff])[\udc80-\udcff]/g, "").isWellFormed();
  }

  #carriesRow(row: SqliteRow | null): boolean {
    if (row === null) return true;
    for (const k in row) if (!this.#carries(row[k]!)) return false;
    return true;
  }

  table(t: TableStart): void {
    this.#current = null;
    const { before, after } = t;
    const omit = (reason: string): void => void this.omitted.push({ table: t.name, reason });
    // A virtual table's rows are in its shadow tables, carried like any
    // table's; adding or dropping it is schema, which a changeset lacks.
    if (t.virtual && before !== null && after !== null) return;
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
    const folded = columns.map(foldName);
    const key = new Set(after.key.map(foldName));
    this.#current = {
      table: after,
      columns,
      folded,
      at: new Map(folded.map((f, i) => [f, i])),
      key,
      inKey: folded.map((f) => key.has(f)),
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
    const c = change as Partial<Record<"key" | "row" | "before" | "after", SqliteRow>>;
    if (
      ![c.key, c.row, c.before, c.after].every((r) => this.#carriesRow(r ?? null))
    ) {
      if (
        !this.omitted.some((o) => o.table === cur.table.name && o.reason.startsWith("rows with"))
      ) {
        this.omitted.push({
          table: cur.table.name,
          reason:
            "rows with text holding an unpaired surrogate (a changeset's text is UTF-8, which SQLite reads such text from as U+FFFD; use --sql)",
        });
      }
      return;
    }
    const out = this.#out;
    out.clear();
    const n = cur.columns.length;
    /** Writes a record of `row`'s values of the columns `present` says, the others undefined. */
    const record = (row: SqliteRow, present: (i: number) => boolean): void => {
      // The row's own name of each column: the same name but for its case.
      let byFold: Map<string, string> | null = null;
      for (let i = 0; i < n; i++) {
        if (!present(i)) {
          out.value(undefined);
          continue;
        }
        const c = cur.columns[i]!;
        let name: string | undefined = c;
        if (!Object.hasOwn(row, c)) {
          byFold ??= new Map(Object.keys(row).map((k) => [foldName(k), k]));
          name = byFold.get(cur.folded[i]!);
        }
        out.value(name !== undefined ? row[name] ?? null : undefined);
      }
    };
    const all = (): boolean => true;
    if (event.kind === "added") {
      out.byte(INSERT);
      out.byte(0);
      record(event.change.row, all);
    } else if (event.kind === "removed") {
      out.byte(DELETE);
      out.byte(0);
      record(event.change.row, all);
    } else {
      const c = event.change;
      const changed = new Set(c.changed_columns.map(foldName));
      if ([...changed].some((k) => cur.key.has(k))) {
        out.byte(DELETE);
        out.byte(0);
        record(c.before, all);
        out.byte(INSERT);
        out.byte(0);
        record(c.after, all);
      } else {
        const isChanged = new Uint8Array(n);
        for (const k of changed) {
          const i = cur.at.get(k);
          if (i !== undefined) isChanged[i] = 1;
        }
        out.byte(UPDATE);
        out.byte(0);
        record(c.before, (i) => cur.inKey[i]! || isChanged[i] === 1);
        record(c.after, (i) => isChanged[i] === 1);
      }
    }
    if (!cur.headerWritten) {
      cur.headerWritten = true;
      const name = new TextEncoder().encode(cur.table.name);
      const pk = cur.table.columns.map((c) => cur.key.has(foldName(c.name)) ? c.primary_key : 0);
      // A rowid table keyed by its INTEGER PRIMARY KEY: that column is key #1.
      this.#sink.write(
        new Uint8Array([0x54, ...varintBytes(cur.columns.length), ...pk, ...name, 0]),
      );
    }
    // A copy: the sink may keep what it is given.
    this.#sink.write(out.bytes.slice());
  }
}

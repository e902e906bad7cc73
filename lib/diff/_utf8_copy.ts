/**
 * A UTF-16 database's tables, copied in UTF-8 into a scratch database for
 * the engine: the WASM build of SQLite omits UTF-16 (it cannot read such a
 * file), and no SQLite can attach files of two encodings to one connection.
 * The file reader decodes UTF-16 exactly (lib/sqlite_format/record.ts), so
 * the rows come from it: each table created with its own CREATE statement,
 * its rows inserted with their rowids (so rowid ranges and pairing by rowid
 * hold), then its named indexes. Views and triggers are not needed to
 * compare rows; virtual tables are left out (their shadow tables are
 * copied as tables).
 *
 * Text with an unpaired surrogate, which UTF-8 cannot hold, is stored as its
 * generalized UTF-8 bytes (WTF-8: U+D800 as ED A0 80), which no UTF-16 text
 * shares, so the engine's comparisons stay exact; {@link foldSurrogates}
 * turns what the engine reads back into the text the file holds.
 *
 * Only built when a table needs the engine; the copy is on disk (the file
 * layer's scratch files), so memory stays flat.
 *
 * @module
 */
import { SqliteOpenError } from "../errors.ts";
import type { Database } from "../sqlite/database.ts";
import type { Statement } from "../sqlite/statement.ts";
import { ident } from "../sqlite/sql_text.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { Cursor } from "../sqlite_format/cursor.ts";
import type { PageSide } from "./_page_sides.ts";
import { foldName } from "./names.ts";
import type { TableSchema } from "./schema.ts";

/**
 * A UTF-16 side's copy in the (empty, UTF-8) schema `schema` of `db`: every
 * table created at once (empty), each filled with its rows and given its
 * indexes only when SQLite is to compare it ({@link fill}), so that tables
 * the file reader diffs cost nothing.
 */
export class Utf8Copy {
  readonly #db: Database;
  readonly #schema: string;
  readonly #side: PageSide;
  readonly #filled = new Set<string>();

  constructor(db: Database, schema: string, side: PageSide) {
    this.#db = db;
    this.#schema = schema;
    this.#side = side;
    // Nothing here needs undoing: the copy goes when the diff ends.
    db.exec(`PRAGMA ${ident(schema)}.journal_mode=OFF; PRAGMA ${ident(schema)}.synchronous=OFF`);
    for (const t of side.schema!.tables.values()) {
      if (t.module === null && !internal(t.name)) db.exec(qualified(t.sql, schema));
    }
  }

  /** Copies the rows and indexes of table `name` (once; a table this side lacks is no work). */
  async fill(name: string): Promise<void> {
    const folded = foldName(name);
    if (this.#filled.has(folded)) return;
    this.#filled.add(folded);
    const t = [...this.#side.schema!.tables.values()].find((x) => foldName(x.name) === folded);
    if (t === undefined || t.module !== null || t.rootPage <= 0) return;
    if (internal(t.name) && folded !== "sqlite_sequence") return;
    await copyRows(this.#db, this.#schema, this.#side, t);
    for (const o of this.#side.schema!.objects) {
      if (o.type === "index" && foldName(o.table) === folded && !internal(o.table)) {
        this.#db.exec(qualified(o.sql, this.#schema));
      }
    }
  }

  /** Copies every table. */
  async fillAll(): Promise<void> {
    for (const t of this.#side.schema!.tables.values()) await this.fill(t.name);
  }
}

function internal(name: string): boolean {
  return /^sqlite_/i.test(name);
}

/**
 * The error for a UTF-16 file whose schema only SQLite can read (a virtual
 * table's columns belong to its module; a CREATE statement the file reader
 * does not parse, as a damaged one), which the WASM build cannot.
 */
export function utf16SchemaError(side: PageSide): SqliteOpenError {
  const encoding = side.src.header.encoding!.toUpperCase().replace("LE", "le").replace("BE", "be");
  return new SqliteOpenError(
    side.path,
    "unsupported",
    `Cannot read "${side.path}": its schema must be read by SQLite (a virtual table, or a CREATE statement the file reader cannot parse, as a damaged one is), and the WASM build of SQLite cannot read a ${encoding} database; convert it with: sqlite3 "${side.path}" .dump | sqlite3 utf8.db`,
  );
}

/** A stored CREATE statement (SQLite stores `CREATE TABLE name...`) made to create in `schema`. */
function qualified(sql: string, schema: string): string {
  const m = /^\s*CREATE\s+(TABLE|UNIQUE\s+INDEX|INDEX)\s+/i.exec(sql);
  if (m === null) throw new Error(`internal: cannot copy ${JSON.stringify(sql.slice(0, 40))}`);
  return `${m[0]}${ident(schema)}.${sql.slice(m[0].length)}`;
}

/** How a table's records map to its columns. */
interface Layout {
  /** For each record field, the column it fills (-1: none, the rowid alias's NULL). */
  readonly fields: readonly number[];
  /** The columns that take values (generated ones left out). */
  readonly insertable: readonly boolean[];
  /** The column the rowid goes in (the INTEGER PRIMARY KEY, or a rowid name), or null. */
  readonly rowidColumn: string | null;
}

function layout(t: TableSchema): Layout {
  const stored = t.columns.map((c, i) => ({ c, i })).filter(({ c }) => c.hidden !== 2);
  const insertable = t.columns.map((c) => c.hidden === 0);
  if (t.withoutRowid) {
    // Key columns first in key order, then the others in table order.
    const key = t.key.map((k) => t.columns.findIndex((c) => foldName(c.name) === foldName(k)));
    const rest = stored.map(({ i }) => i).filter((i) => !key.includes(i));
    return { fields: [...key, ...rest], insertable, rowidColumn: null };
  }
  const alias = t.keyKind === "rowid" && t.key.length === 1
    ? t.columns.findIndex((c) => foldName(c.name) === foldName(t.key[0]!))
    : -1;
  return {
    fields: stored.map(({ i }) => (i === alias ? -1 : i)),
    insertable,
    rowidColumn: alias >= 0 ? t.columns[alias]!.name : t.rowidName,
  };
}

async function copyRows(db: Database, schema: string, side: PageSide, t: TableSchema) {
  const { fields, insertable, rowidColumn } = layout(t);
  const kind = t.withoutRowid ? "index" : "table";
  const cursor = new Cursor(side.src, t.rootPage, kind, null, "none");
  // One statement per number of fields a record has (rows written before an
  // ADD COLUMN have fewer: the missing columns take their defaults).
  const statements = new Map<number, { stmt: Statement; sql: string; at: number[] }>();
  const into = `${ident(schema)}.${ident(t.name)}`;
  const prepare = (n: number) => {
    const at: number[] = [];
    const names: string[] = [];
    if (rowidColumn !== null) names.push(ident(rowidColumn));
    for (let f = 0; f < n && f < fields.length; f++) {
      const col = fields[f]!;
      if (col >= 0 && insertable[col]) {
        at.push(f);
        names.push(ident(t.columns[col]!.name));
      }
    }
    const values = names.map(() => "?").join(", ");
    const list = names.length === 0 ? "DEFAULT VALUES" : `(${names.join(", ")}) VALUES (${values})`;
    const sql = names.length === 0 ? `INSERT INTO ${into} ${list}` : `INSERT INTO ${into}${list}`;
    return { stmt: db.prepare(sql), sql, at };
  };
  db.exec("BEGIN");
  try {
    for (let c = await cursor.next(); c !== null; c = await cursor.next()) {
      const n = c.record.count;
      let s = statements.get(n);
      if (s === undefined) statements.set(n, s = prepare(n));
      const params: SqliteValue[] = rowidColumn === null ? [] : [c.rowid];
      let odd = false;
      for (const f of s.at) {
        const v = c.record.value(f);
        if (typeof v === "string" && !v.isWellFormed()) odd = true;
        params.push(v);
      }
      if (odd) insertWithSurrogates(db, s.sql, params);
      else {
        s.stmt.bind(params);
        s.stmt.step();
      }
    }
    db.exec("COMMIT");
  } finally {
    for (const { stmt } of statements.values()) stmt.finalize();
    await cursor.close();
  }
}

/** One row whose text holds unpaired surrogates: those values bound as WTF-8 bytes, cast to TEXT. */
function insertWithSurrogates(db: Database, sql: string, params: SqliteValue[]): void {
  let i = 0;
  const bound: SqliteValue[] = [];
  const text = sql.replace(/\?/g, () => {
    const v = params[i++]!;
    if (typeof v === "string" && !v.isWellFormed()) {
      bound.push(wtf8(v));
      return "CAST(? AS TEXT)";
    }
    bound.push(v);
    return "?";
  });
  const stmt = db.prepare(text);
  try {
    stmt.bind(bound);
    stmt.step();
  } finally {
    stmt.finalize();
  }
}

/** Generalized UTF-8: a string's code points, unpaired surrogates included, in UTF-8's form. */
function wtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    if (c > 0xffff) i++;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else {
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f));
      out.push(0x80 | (c & 0x3f));
    }
  }
  return new Uint8Array(out);
}

/** Three escaped bytes (lib/sqlite/text.ts) that are the WTF-8 form of a surrogate. */
const ESCAPED_SURROGATE = /\udced([\udca0-\udcbf])([\udc80-\udcbf])/g;

/**
 * Text the engine read from a UTF-8 copy, as the UTF-16 file holds it: the
 * WTF-8 bytes of an unpaired surrogate, which the engine's reader gives as
 * three escaped bytes, become that surrogate again.
 *
 * @param v a value read from the copy
 * @returns the value as the file holds it
 */
export function foldSurrogates(v: SqliteValue): SqliteValue {
  if (typeof v !== "string" || v.isWellFormed()) return v;
  return v.replace(
    ESCAPED_SURROGATE,
    (_, b, c) =>
      String.fromCharCode(
        0xd000 | ((b.charCodeAt(0) - 0xdc00) & 0x3f) << 6 | ((c.charCodeAt(0) - 0xdc00) & 0x3f),
      ),
  );
}

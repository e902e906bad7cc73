/**
 * Seeded random pairs of SQLite databases for the diff tests (the
 * differential test and the --sql round trip): tables of every shape the
 * diff pairs differently, values of every storage class, and after sides
 * edited in place, left in a pending -wal or VACUUMed.
 *
 * @module
 */
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { mulberry32 } from "../lib/counterexample/random.ts";
import { tempDir } from "./fixtures.ts";

export type Shape =
  | "rowid"
  | "text_key"
  | "nocase_key"
  | "composite"
  | "without_rowid"
  | "strict"
  | "generated"
  | "keyless"
  | "typed_generated"
  | "autoincrement"
  | "fts5"
  | "rowid_names";
export const SHAPES: Shape[] = [
  "rowid",
  "text_key",
  "nocase_key",
  "composite",
  "without_rowid",
  "strict",
  "generated",
  "keyless",
];
/**
 * The shapes the round-trip tests add: a generated column that shows a
 * value's storage class (1 against 1.0), an AUTOINCREMENT table (its
 * sqlite_sequence row), an FTS5 table (its shadow tables), and a keyless
 * table whose own columns take all three names of the rowid.
 */
export const ROUND_TRIP_SHAPES: Shape[] = [
  ...SHAPES,
  "typed_generated",
  "autoincrement",
  "fts5",
  "rowid_names",
];

/** Whether a shape's tables have no key (rows compared as a multiset). */
export function keyless(shape: Shape): boolean {
  return shape === "keyless" || shape === "rowid_names";
}

export interface TableSpec {
  readonly name: string;
  readonly shape: Shape;
  /** SQL for a key value of row i. */
  readonly key: (i: number) => string[];
  readonly keyCols: string[];
  /** Columns written by INSERT / UPDATE, besides the key. */
  readonly valueCols: string[];
  readonly create: string;
}

const int = (i: number): string[] => [String(i)];
const text = (i: number): string[] => [`'k${i}'`];
const none = (): string[] => [];

/** Each shape's table: its key, its columns, and its CREATE for a name. */
const TABLES: Record<
  Shape,
  Omit<TableSpec, "name" | "shape" | "create"> & {
    readonly create: (name: string) => string;
  }
> = {
  rowid: {
    key: int,
    keyCols: ["id"],
    valueCols: ["a", "b", "c"],
    create: (name) => `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, a, b TEXT, c REAL)`,
  },
  text_key: {
    key: text,
    keyCols: ["k"],
    valueCols: ["a", "b"],
    create: (name) => `CREATE TABLE ${name}(k TEXT PRIMARY KEY NOT NULL, a, b)`,
  },
  nocase_key: {
    key: text,
    keyCols: ["k"],
    valueCols: ["a"],
    create: (name) => `CREATE TABLE ${name}(k TEXT PRIMARY KEY NOT NULL COLLATE NOCASE, a)`,
  },
  composite: {
    key: (i) => [`'g${i % 7}'`, String(i)],
    keyCols: ["k1", "k2"],
    valueCols: ["a"],
    create: (name) =>
      `CREATE TABLE ${name}(k1 TEXT NOT NULL, k2 INT NOT NULL, a, PRIMARY KEY(k1, k2))`,
  },
  without_rowid: {
    key: int,
    keyCols: ["k"],
    valueCols: ["a", "b"],
    create: (name) => `CREATE TABLE ${name}(k INT PRIMARY KEY, a, b) WITHOUT ROWID`,
  },
  strict: {
    key: int,
    keyCols: ["id"],
    valueCols: ["n", "t"],
    create: (name) => `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, n INTEGER, t TEXT) STRICT`,
  },
  generated: {
    key: int,
    keyCols: ["id"],
    valueCols: ["a"],
    create: (name) =>
      `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, a INT,
          g INT GENERATED ALWAYS AS (a * 2) VIRTUAL, s TEXT GENERATED ALWAYS AS (a || 'x') STORED)`,
  },
  keyless: {
    key: none,
    keyCols: [],
    valueCols: ["a", "b"],
    create: (name) => `CREATE TABLE ${name}(a, b)`,
  },
  typed_generated: {
    key: int,
    keyCols: ["id"],
    valueCols: ["a", "b"],
    create: (name) =>
      `CREATE TABLE ${name}(id INTEGER PRIMARY KEY, a, b,
          g TEXT GENERATED ALWAYS AS (typeof(a) || typeof(b)) STORED)`,
  },
  autoincrement: {
    key: int,
    keyCols: ["id"],
    valueCols: ["a", "b"],
    create: (name) => `CREATE TABLE ${name}(id INTEGER PRIMARY KEY AUTOINCREMENT, a, b)`,
  },
  rowid_names: {
    key: none,
    keyCols: [],
    valueCols: ["a", "rowid", "oid", "_rowid_"],
    create: (name) => `CREATE TABLE ${name}(rowid, oid, _rowid_, a)`,
  },
  fts5: {
    key: int,
    keyCols: ["rowid"],
    valueCols: ["a", "b"],
    create: (name) => `CREATE VIRTUAL TABLE ${name} USING fts5(a, b)`,
  },
};

export function spec(name: string, shape: Shape): TableSpec {
  const { create, ...table } = TABLES[shape];
  return { name, shape, ...table, create: create(name) };
}

/** Text holding NUL and CR LF, for the round-trip pairs. */
function controlText(random: () => number): string {
  const pieces = ["'x'", "char(0)", "char(13,10)", "char(13)", "'\u00e9'", "char(10)"];
  return Array.from(
    { length: 1 + Math.floor(random() * 4) },
    () => pieces[Math.floor(random() * pieces.length)]!,
  ).join(" || ");
}

export function valueSql(
  random: () => number,
  shape: Shape,
  col: string,
  roundTrip = false,
): string {
  if (roundTrip) {
    if (shape === "typed_generated") {
      return ["1", "1.0", "2", "2.0", "NULL", "'1'"][Math.floor(random() * 6)]!;
    }
    if (shape === "fts5") return `'w${Math.floor(random() * 20)} w${Math.floor(random() * 20)}'`;
    if (shape !== "strict" && shape !== "generated" && random() < 0.15) {
      return keyless(shape) && random() < 0.5 ? "'1'" : controlText(random);
    }
  }
  if (shape === "strict") {
    return col === "n"
      ? String(Math.floor(random() * 1e6) - 5e5)
      : `'t${Math.floor(random() * 50)}'`;
  }
  if (shape === "generated") return String(Math.floor(random() * 100));
  if (keyless(shape)) return String(Math.floor(random() * 4)); // duplicates happen
  const r = random();
  if (r < 0.1) return "NULL";
  if (r < 0.3) return String(Math.floor(random() * 1000));
  if (r < 0.4) return `${9007199254740993n + BigInt(Math.floor(random() * 1000))}`;
  if (r < 0.55) return String(random() * 1000 - 500);
  if (r < 0.75) return `'v${Math.floor(random() * 100)}'`;
  if (r < 0.8) return `'\u00e9\u4e2d${Math.floor(random() * 10)}'`;
  if (r < 0.85) return `CAST(x'${random() < 0.5 ? "efbbbf61" : "61ff"}' AS TEXT)`;
  const hex = Array.from(
    { length: 1 + Math.floor(random() * 8) },
    () => Math.floor(random() * 256).toString(16).padStart(2, "0"),
  ).join("");
  return `x'${hex}'`;
}

export function insertSql(
  random: () => number,
  t: TableSpec,
  i: number,
  roundTrip = false,
): string {
  const vals = [...t.key(i), ...t.valueCols.map((c) => valueSql(random, t.shape, c, roundTrip))];
  return `INSERT INTO ${t.name}(${[...t.keyCols, ...t.valueCols].join(", ")}) VALUES (${
    vals.join(", ")
  })`;
}

export function keyWhere(t: TableSpec, i: number): string {
  const k = t.key(i);
  return t.keyCols.map((c, j) => `${c} = ${k[j]}`).join(" AND ");
}

export interface Pair {
  readonly name: string;
  readonly tables: TableSpec[];
  /** Columns the generator added, per table. */
  readonly addedColumns: Map<string, string[]>;
  /** Objects created (+) or dropped (-) on the after side, "index ix_t0". */
  readonly objects: string[];
}

/**
 * Builds a seeded pair. `roundTrip` adds what the round-trip tests need on
 * top (the differential test's references do not model them): text with
 * NUL and CR LF, the shapes of ROUND_TRIP_SHAPES, AUTOINCREMENT keys
 * updated, and keyless tables rebuilt with other column types. `utf16`
 * makes every second pair UTF-16 (le and be in turn).
 */
export function buildPair(
  n: number,
  seed: number,
  before: string,
  afterFile: string,
  roundTrip = false,
  utf16 = false,
): Pair {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const tables = Array.from(
    { length: 1 + Math.floor(random() * 3) },
    (_, i) => spec(`t${i}`, pick(roundTrip ? ROUND_TRIP_SHAPES : SHAPES)),
  );
  const value = (t: TableSpec, col: string): string => valueSql(random, t.shape, col, roundTrip);
  const insert = (t: TableSpec, i: number): string => insertSql(random, t, i, roundTrip);
  const pageSize = pick([512, 1024, 4096, 65536]);
  const rows = new Map<string, number>();
  const db = new DatabaseSync(before);
  // With `utf16`, every second pair in UTF-16 (by its number, so the seeded
  // choices stay as they were), but for pairs with an FTS5 table: a virtual
  // table's schema needs SQLite, which cannot read UTF-16 (docs/diff-format.md).
  const fts5 = tables.some((t) => t.shape === "fts5");
  const encoding = utf16 && !fts5 ? ["UTF-8", "UTF-16le", "UTF-8", "UTF-16be"][n % 4] : "UTF-8";
  db.exec(
    `PRAGMA page_size = ${pageSize}; PRAGMA encoding = '${encoding}'; PRAGMA synchronous = OFF`,
  );
  db.exec("BEGIN");
  for (const t of tables) {
    db.exec(t.create);
    const count = Math.floor(random() * (random() < 0.2 ? 2000 : 60));
    rows.set(t.name, count);
    for (let i = 1; i <= count; i++) db.exec(insert(t, i));
    if (t.shape !== "fts5" && random() < 0.3) {
      db.exec(`CREATE INDEX ix_${t.name} ON ${t.name}(${t.valueCols[0]})`);
    }
  }
  db.exec("CREATE VIEW v_old AS SELECT 1");
  db.exec("COMMIT");
  db.close();

  const layout = pick(["in-place", "in-place", "wal-pending", "vacuum-after", "vacuum-before"]);
  const scratch = tempDir("dbagenteval-differential-w-");
  const work = scratch.file("w.db");
  fs.copyFileSync(before, work);
  const w = new DatabaseSync(work);
  w.exec("PRAGMA synchronous = OFF");
  if (layout === "wal-pending") w.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
  const addedColumns = new Map<string, string[]>();
  const objects: string[] = [];
  for (const t of tables) {
    const count = rows.get(t.name)!;
    const edits = Math.floor(random() * 8);
    for (let e = 0; e < edits; e++) {
      const i = 1 + Math.floor(random() * Math.max(count, 1));
      const what = random();
      if (keyless(t.shape)) {
        // (In a rowid_names table, "rowid" is the user's column.)
        if (what < 0.4) w.exec(`DELETE FROM ${t.name} WHERE rowid = ${i}`);
        else if (what < 0.7) w.exec(insert(t, 0));
        else w.exec(`UPDATE ${t.name} SET a = ${value(t, "a")} WHERE rowid = ${i}`);
      } else if (what < 0.3) {
        w.exec(`DELETE FROM ${t.name} WHERE ${keyWhere(t, i)}`);
      } else if (what < 0.55) {
        w.exec(insert(t, count + 1 + e));
      } else if (t.shape === "autoincrement" && what < 0.65) {
        // An UPDATE of the key does not raise sqlite_sequence; an INSERT would.
        w.exec(`UPDATE OR IGNORE ${t.name} SET id = id + 5000 WHERE ${keyWhere(t, i)}`);
      } else {
        const col = pick(t.valueCols);
        w.exec(`UPDATE ${t.name} SET ${col} = ${value(t, col)} WHERE ${keyWhere(t, i)}`);
      }
    }
    if (roundTrip && t.shape === "keyless" && random() < 0.3) {
      // A rebuild with other column types: the copied values take the new affinity.
      const types = pick(["INTEGER, b TEXT", "TEXT, b", "NUMERIC, b REAL"]);
      w.exec(`ALTER TABLE ${t.name} RENAME TO ${t.name}_old;
        CREATE TABLE ${t.name}(a ${types}); INSERT INTO ${t.name} SELECT a, b FROM ${t.name}_old;
        DROP TABLE ${t.name}_old;`);
    }
    const alterable = !keyless(t.shape) && !["strict", "fts5"].includes(t.shape);
    if (alterable && random() < 0.15) {
      w.exec(`ALTER TABLE ${t.name} ADD COLUMN extra`);
      if (count > 0) w.exec(`UPDATE ${t.name} SET extra = 'x' WHERE ${keyWhere(t, count)}`);
      addedColumns.set(t.name, ["extra"]);
    }
    // A virtual table can have no trigger or index.
    if (t.shape !== "fts5" && random() < 0.15) {
      w.exec(`CREATE TRIGGER tr_${t.name} AFTER DELETE ON ${t.name} BEGIN SELECT 1; END`);
      objects.push(`trigger tr_${t.name} added`);
    }
  }
  if (random() < 0.2) {
    w.exec("DROP VIEW v_old");
    objects.push("view v_old removed");
  }
  const ix = tables.find((t) => t.shape !== "fts5");
  if (ix !== undefined && random() < 0.15) {
    w.exec(`CREATE INDEX ix_new ON ${ix.name}(${ix.valueCols[0]})`);
    objects.push("index ix_new added");
  }
  if (layout === "vacuum-after") w.exec("VACUUM");
  if (layout === "wal-pending") {
    fs.copyFileSync(work, afterFile);
    if (fs.existsSync(`${work}-wal`)) fs.copyFileSync(`${work}-wal`, `${afterFile}-wal`);
    w.close();
  } else {
    w.close();
    fs.copyFileSync(work, afterFile);
  }
  scratch.cleanup();
  if (layout === "vacuum-before") {
    const b = new DatabaseSync(before);
    b.exec("VACUUM");
    b.close();
  }
  return { name: `p${n}.db`, tables, addedColumns, objects };
}

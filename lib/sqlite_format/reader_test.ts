/**
 * The file-format reader against SQLite itself: databases written by the
 * runtime's own SQLite (node:sqlite) in every page size, text encoding,
 * auto_vacuum mode, reserved-bytes value and WAL state, read back by the
 * reader (schema rows, every table's and index's cells, values exactly as
 * SQLite's hex() and typeof() give them, row counts) and checked whole
 * without a false alarm.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/fixtures.ts";
import { needs } from "../../tests/system_packages.ts";
import { encodeSqliteText } from "../sqlite/text.ts";
import type { SqliteValue } from "../sqlite/value.ts";
import { PageSource } from "./page_source.ts";
import { readSchemaRows } from "./schema_rows.ts";
import { Cursor } from "./cursor.ts";
import { checkFile, treeKind } from "./check.ts";

const dir = tempDir("dbagenteval-format-");
after(() => dir.cleanup());

interface Config {
  readonly pageSize: number;
  readonly encoding: "UTF-8" | "UTF-16le" | "UTF-16be";
  readonly autoVacuum: "none" | "full" | "incremental";
  readonly reserved: number;
  readonly journal: "delete" | "wal" | "wal-pending";
}

const CONFIGS: Config[] = [
  { pageSize: 512, encoding: "UTF-8", autoVacuum: "none", reserved: 0, journal: "delete" },
  { pageSize: 1024, encoding: "UTF-16le", autoVacuum: "full", reserved: 0, journal: "delete" },
  { pageSize: 2048, encoding: "UTF-16be", autoVacuum: "incremental", reserved: 0, journal: "wal" },
  { pageSize: 4096, encoding: "UTF-8", autoVacuum: "full", reserved: 8, journal: "delete" },
  { pageSize: 8192, encoding: "UTF-8", autoVacuum: "incremental", reserved: 32, journal: "delete" },
  {
    pageSize: 16384,
    encoding: "UTF-16le",
    autoVacuum: "none",
    reserved: 0,
    journal: "wal-pending",
  },
  { pageSize: 32768, encoding: "UTF-8", autoVacuum: "none", reserved: 0, journal: "wal" },
  { pageSize: 65536, encoding: "UTF-16be", autoVacuum: "full", reserved: 0, journal: "delete" },
  { pageSize: 65536, encoding: "UTF-8", autoVacuum: "none", reserved: 0, journal: "wal-pending" },
  {
    pageSize: 512,
    encoding: "UTF-16le",
    autoVacuum: "incremental",
    reserved: 0,
    journal: "wal-pending",
  },
  { pageSize: 1024, encoding: "UTF-8", autoVacuum: "none", reserved: 40, journal: "delete" },
  { pageSize: 4096, encoding: "UTF-8", autoVacuum: "full", reserved: 0, journal: "wal-pending" },
];

const ROWS = 300;

/** The tables and rows every configuration holds, then changes made later (into the -wal for wal-pending). */
function content(): { first: string; later: string } {
  const first = `
    CREATE TABLE t(id INTEGER PRIMARY KEY, i INT, r REAL, s TEXT, b BLOB, n);
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS})
    INSERT INTO t SELECT x, x * x * x * 1000003 - 5, x / 7.0,
      printf('row %d \u00e9 \u20ac \u{1d11e} %s', x, substr('abcdefghij', 1 + x % 10)),
      CAST(printf('%08d', x) AS BLOB), CASE x % 3 WHEN 0 THEN NULL WHEN 1 THEN 2.5 ELSE 'x' END
    FROM c;
    INSERT INTO t VALUES (-5, -9223372036854775808, -0.0, '', x'', 9223372036854775807);
    INSERT INTO t VALUES (-9223372036854775808, 0, 1e300, 'a' || char(0) || 'b', x'00ff', 1);
    INSERT INTO t VALUES (9223372036854775807, 1, 3.0, CAST(x'00d861' AS TEXT), NULL, -1);
    INSERT INTO t VALUES (5000, 2, 1.0, printf('%.*c', 9000, 'x'), zeroblob(70000), 4);
    INSERT INTO t VALUES (5001, 3, NULL, printf('%.*c', 3000, 'y') || 'z', zeroblob(300), 4);
    CREATE INDEX t_s ON t(s, i);
    CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS})
    INSERT INTO w SELECT printf('key-%05d-%s', x, substr('qwertyuiopasdfghjkl', 1 + x % 12)), x FROM c;
    INSERT INTO w VALUES (printf('%.*c', 2000, 'k'), 'long key');
    CREATE TABLE k(a, b);
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50)
    INSERT INTO k SELECT x % 7, 'v' FROM c;
    CREATE TABLE gone(v); INSERT INTO gone SELECT zeroblob(3000) FROM t; DROP TABLE gone;
    CREATE VIEW v AS SELECT id FROM t;`;
  const later = `
    UPDATE t SET s = s || '!' WHERE id % 17 = 0;
    DELETE FROM t WHERE id % 23 = 0;
    INSERT INTO w VALUES ('zz-later', x'beef');
    INSERT INTO k VALUES (NULL, 'later');`;
  return { first, later };
}

function sqlite3(file: string, ...commands: string[]): void {
  const r = spawnSync("sqlite3", [file, ...commands], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

/** Writes a database of `config` (the same rows in every one). */
function build(config: Config, name: string): string {
  const file = dir.file(`${name}.db`);
  const { first, later } = content();
  const pragmas = `PRAGMA page_size = ${config.pageSize}; PRAGMA encoding = '${config.encoding}';
    PRAGMA auto_vacuum = ${config.autoVacuum};`;
  if (config.journal !== "wal-pending") {
    const db = new DatabaseSync(file);
    db.exec(pragmas);
    if (config.journal === "wal") db.exec("PRAGMA journal_mode = WAL");
    db.exec(first);
    db.exec(later);
    db.close();
    if (config.reserved > 0) sqlite3(file, `.filectrl reserve_bytes ${config.reserved}`, "VACUUM;");
    return file;
  }
  // Commits left in the -wal: copied while the writer holds it open.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-format-wal-"));
  const src = path.join(scratch, "w.db");
  const db = new DatabaseSync(src);
  db.exec(pragmas);
  db.exec(first);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;");
  db.exec(later);
  fs.copyFileSync(src, file);
  fs.copyFileSync(`${src}-wal`, `${file}-wal`);
  db.close();
  fs.rmSync(scratch, { recursive: true, force: true });
  return file;
}

/** A value's bytes as SQLite's hex() shows them, in the database's encoding. */
function hexOf(v: SqliteValue, encoding: string): string {
  const bytes = v instanceof Uint8Array
    ? v
    : encoding === "UTF-8"
    ? encodeSqliteText(v as string)
    : utf16(v as string, encoding === "UTF-16le");
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
}

function utf16(s: string, le: boolean): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[2 * i + (le ? 0 : 1)] = c & 0xff;
    out[2 * i + (le ? 1 : 0)] = c >> 8;
  }
  return out;
}

/** SQLite's reading of a table: per row, per column, [typeof, hex, value]. */
function sqliteRows(file: string, sql: string): unknown[][][] {
  const db = new DatabaseSync(file, { readOnly: true });
  const stmt = db.prepare(sql);
  stmt.setReadBigInts(true);
  const rows = stmt.all().map((r) => {
    const values = Object.values(r);
    const out: unknown[][] = [];
    for (let i = 0; i < values.length; i += 3) out.push(values.slice(i, i + 3));
    return out;
  });
  db.close();
  return rows;
}

function sameValue(ours: SqliteValue, [type, hex, raw]: unknown[], encoding: string): boolean {
  switch (type) {
    case "null":
      return ours === null;
    case "integer":
      return (typeof ours === "number" || typeof ours === "bigint") && BigInt(ours) === raw;
    case "real":
      return typeof ours === "number" && ours === raw;
    default:
      return (typeof ours === "string" || ours instanceof Uint8Array) &&
        hexOf(ours, encoding) === hex;
  }
}

const triple = (c: string) => `typeof(${c}), hex(${c}), ${c}`;

for (const config of CONFIGS) {
  const name =
    `${config.pageSize}-${config.encoding}-${config.autoVacuum}-r${config.reserved}-${config.journal}`;
  describe(
    `the reader on ${name}`,
    { skip: config.reserved > 0 ? needs("sqlite3") : false },
    () => {
      it("reads sqlite_schema's rows as SQLite does", () => {
        const file = build(config, `${name}-schema`);
        const src = PageSource.open(file);
        try {
          const ours = readSchemaRows(src, null).map((
            r,
          ) => [r.type, r.name, r.tbl_name, r.rootpage, r.sql]);
          const db = new DatabaseSync(file, { readOnly: true });
          const theirs = db.prepare(
            "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY rowid",
          )
            .all().map((r) => Object.values(r));
          db.close();
          assert.deepEqual(ours, theirs);
          if (config.reserved > 0) assert.equal(src.usable, config.pageSize - config.reserved);
          if (config.journal === "wal-pending") assert.ok(src.walPages > 0);
        } finally {
          src.close();
        }
      });

      it("reads every table's rows and every index entry as SQLite does, and checks the file whole", async () => {
        const file = build(config, `${name}-rows`);
        const src = PageSource.open(file);
        try {
          const schema = readSchemaRows(src, null);
          const root = (n: string) => schema.find((r) => r.name === n)!;
          // t: the rowid and each column (id is the rowid; r has REAL affinity).
          const theirs = sqliteRows(
            file,
            `SELECT ${
              ["rowid", "i", "r", "s", "b", "n"].map(triple).join(", ")
            } FROM t ORDER BY rowid`,
          );
          const ours: SqliteValue[][] = [];
          const cursor = new Cursor(src, root("t").rootpage, "table", null, "none");
          for (let c = await cursor.next(); c !== null; c = await cursor.next()) {
            const r = c.record;
            ours.push([c.rowid, r.value(1), r.value(2, true), r.value(3), r.value(4), r.value(5)]);
          }
          assert.equal(ours.length, theirs.length);
          ours.forEach((row, i) => {
            row.forEach((v, j) => {
              assert.ok(
                sameValue(v, theirs[i]![j]!, config.encoding),
                `t row ${i} column ${j}: ${String(v)} vs ${String(theirs[i]![j])}`,
              );
            });
          });
          // w: a WITHOUT ROWID table, interior cells included, in key order.
          const wTheirs = sqliteRows(
            file,
            `SELECT ${triple("k")}, ${triple("v")} FROM w ORDER BY k`,
          );
          const wOurs: SqliteValue[][] = [];
          const w = new Cursor(src, root("w").rootpage, "index", null, "none");
          for (let c = await w.next(); c !== null; c = await w.next()) {
            wOurs.push([c.record.value(0), c.record.value(1)]);
          }
          assert.equal(wOurs.length, wTheirs.length);
          wOurs.forEach((row, i) =>
            row.forEach((v, j) =>
              assert.ok(sameValue(v, wTheirs[i]![j]!, config.encoding), `w row ${i}`)
            )
          );
          // t_s: the index's entries (s, i, rowid) in the index's order.
          const iTheirs = sqliteRows(
            file,
            `SELECT ${triple("s")}, ${triple("i")}, ${
              triple("rowid")
            } FROM t INDEXED BY t_s ORDER BY s, i, rowid`,
          );
          const iOurs: SqliteValue[][] = [];
          const ix = new Cursor(src, root("t_s").rootpage, "index", null, "none");
          for (let c = await ix.next(); c !== null; c = await ix.next()) {
            iOurs.push([c.record.value(0), c.record.value(1), c.record.value(2)]);
          }
          assert.equal(iOurs.length, iTheirs.length);
          iOurs.forEach((row, i) =>
            row.forEach((v, j) =>
              assert.ok(sameValue(v, iTheirs[i]![j]!, config.encoding), `t_s entry ${i}`)
            )
          );
          // The whole file: no damage, and SQLite's row counts.
          const check = await checkFile(src);
          const db = new DatabaseSync(file, { readOnly: true });
          for (const t of ["t", "w", "k"]) {
            const n = Number(Object.values(db.prepare(`SELECT count(*) FROM ${t}`).get()!)[0]);
            assert.equal(check.rows.get(t), n, t);
          }
          const free = Number(Object.values(db.prepare("PRAGMA freelist_count").get()!)[0]);
          db.close();
          assert.equal(check.free, free);
          assert.equal(treeKind(root("w")), "index");
        } finally {
          src.close();
        }
      });
    },
  );
}

/**
 * Generates the diff benchmark's workloads into bench/data/ (gitignored)
 * with the sqlite3 shell:
 * - W1: 2M rows x 6 columns; the after file has 1% of rows updated, 0.5%
 *   deleted and 0.5% inserted, spread evenly over the key range;
 * - W2: the after file is a copy of W1's before with 100 rows updated in place;
 * - W3: the after file is a byte copy of W1's before;
 * - W4: 200 tables x 10k rows, with changes in 3 of them;
 * - with --big, only W1 at 20M rows (~2.5 GB), for peak memory;
 * - with --add-column, only W5: W1 at 10M rows (~1.1 GB a file) whose after
 *   side had W1's churn, then a column added (`ALTER TABLE t ADD COLUMN f
 *   TEXT DEFAULT 'none'`) and set on 0.1% of the rows: the
 *   `--sql` patch of a table that gained a column, and the memory of
 *   `--json FILE --sql FILE` on a big pair.
 *
 * Usage: deno run -A bench/gen_diff_data.ts [--big | --add-column]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";

const DATA = path.join(import.meta.dirname ?? ".", "data");
const SQLITE3 = "/usr/bin/sqlite3";

function sqlite(file: string, sql: string): void {
  const r = spawnSync(SQLITE3, [file], {
    input: `PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-200000;\n${sql}`,
    encoding: "utf8",
    stdio: ["pipe", "ignore", "pipe"],
  });
  if (r.status !== 0) throw new Error(`sqlite3 ${file} failed: ${r.stderr}`);
}

/** A table of `n` rows keyed 2, 4, ..., 2n (odd keys are free for inserts). */
function fill(table: string, n: number): string {
  return `CREATE TABLE ${table}(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, d TEXT, e BLOB);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})
INSERT INTO ${table} SELECT 2 * i, i * 7, i / 3.0,
  printf('customer-%08d-%s', i, substr('abcdefghijklmnopqrstuvwxyz', 1 + i % 20, 6)),
  printf('%s street %d, flat %d, %s', substr('northsoutheastwest', 1 + i % 12, 6), i % 997,
    i % 89, substr('springfield-shelbyville-ogdenville', 1 + i % 9, 20)),
  zeroblob(8) || cast(printf('%08d', i) AS BLOB) FROM s;`;
}

/** 1% updated, 0.5% deleted, 0.5% inserted, spread evenly over `n` rows. */
function churn(table: string, n: number): string {
  return `UPDATE ${table} SET a = a + 1, c = c || '!' WHERE id % 200 = 0;
DELETE FROM ${table} WHERE id % 400 = 2;
WITH RECURSIVE s(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM s WHERE j < ${n / 200 - 1})
INSERT INTO ${table} SELECT 400 * j + 1, j, j / 7.0, printf('new-%08d', j), 'inserted',
  cast(printf('%016d', j) AS BLOB) FROM s;`;
}

function fresh(name: string): string {
  const file = path.join(DATA, name);
  fs.rmSync(file, { force: true });
  return file;
}

function time<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const out = f();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

function w1(prefix: string, n: number): void {
  const before = fresh(`${prefix}_before.db`);
  time(`${prefix} before (${n} rows)`, () => sqlite(before, fill("t", n)));
  const after = fresh(`${prefix}_after.db`);
  fs.copyFileSync(before, after);
  time(`${prefix} after`, () => sqlite(after, churn("t", n)));
}

fs.mkdirSync(DATA, { recursive: true });
const N = 2_000_000;
if (process.argv.includes("--big")) {
  w1("w1big", 20_000_000);
  process.exit(0);
}
if (process.argv.includes("--add-column")) {
  const n = 10_000_000;
  const before = fresh("w5_before.db");
  time(`w5 before (${n} rows)`, () => sqlite(before, fill("t", n)));
  const after = fresh("w5_after.db");
  fs.copyFileSync(before, after);
  time("w5 after", () =>
    sqlite(
      after,
      `${churn("t", n)}
ALTER TABLE t ADD COLUMN f TEXT DEFAULT 'none';
UPDATE t SET f = 'set-' || id WHERE id % 2000 = 4;`,
    ));
  process.exit(0);
}
w1("w1", N);
const w2 = fresh("w2_after.db");
fs.copyFileSync(path.join(DATA, "w1_before.db"), w2);
time("w2 after", () => sqlite(w2, `UPDATE t SET a = -a WHERE id % ${(2 * N) / 100} = 0;`));
const w3 = fresh("w3_after.db");
fs.copyFileSync(path.join(DATA, "w1_before.db"), w3);

const w4Before = fresh("w4_before.db");
const tables = Array.from({ length: 200 }, (_, i) => `t${String(i).padStart(3, "0")}`);
time("w4 before", () => sqlite(w4Before, tables.map((t) => fill(t, 10_000)).join("\n")));
const w4After = fresh("w4_after.db");
fs.copyFileSync(w4Before, w4After);
time(
  "w4 after",
  () => sqlite(w4After, ["t010", "t100", "t190"].map((t) => churn(t, 10_000)).join("\n")),
);

for (const f of fs.readdirSync(DATA).sort()) {
  console.log(`${f}: ${(fs.statSync(path.join(DATA, f)).size / 1e6).toFixed(0)} MB`);
}

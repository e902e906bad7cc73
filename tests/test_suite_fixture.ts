/**
 * Spider-style test suites made from Spider's dev databases: for each
 * `db_id`, the database itself and three copies beside it, with rows
 * deleted, duplicated and changed, in one folder (`DIR/<db_id>/*.sqlite`),
 * the layout Spider's test-suite evaluator reads. Used by the test-suite
 * tests (lib/compare/score_spider_official_test.ts, tests/score_cli_test.ts)
 * and by bench/spider_scores.ts, which runs the official evaluator on the
 * same folders: the changes are plain SQL, so each build gives the same rows.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The copies beside each database, and what each does to every table. */
export const TEST_SUITE_COPIES = ["deleted", "duplicated", "changed"] as const;

interface Column {
  readonly name: string;
  readonly pk: number;
}

const q = (name: string): string => `"${name.replaceAll('"', '""')}"`;

function tables(db: DatabaseSync): string[] {
  return db.prepare(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all().map((r) => String(r["name"]));
}

function columns(db: DatabaseSync, table: string): Column[] {
  return db.prepare(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`).all(table)
    .map((r) => ({ name: String(r["name"]), pk: Number(r["pk"]) }));
}

/** The SQL that makes one copy out of a database's tables. */
function changes(db: DatabaseSync, copy: typeof TEST_SUITE_COPIES[number]): string {
  const out: string[] = [];
  for (const table of tables(db)) {
    const cols = columns(db, table);
    const t = q(table);
    if (copy === "deleted") {
      // Every third row goes.
      out.push(`DELETE FROM ${t} WHERE rowid % 3 = 0;`);
    } else if (copy === "duplicated") {
      // Every other row again: the same values, with a new first key column
      // where the table has a key, so that the key stays unique.
      const key = cols.find((c) => c.pk === 1)?.name;
      const values = cols.map((c) =>
        c.name !== key
          ? q(c.name)
          : `CASE WHEN typeof(${q(key)}) IN ('integer', 'real') THEN ${q(key)} + (SELECT max(${
            q(key)
          }) FROM ${t}) + 1 ELSE ${q(key)} || '_2' END`
      );
      out.push(
        `INSERT OR IGNORE INTO ${t} (${cols.map((c) => q(c.name)).join(", ")}) SELECT ${
          values.join(", ")
        } FROM ${t} WHERE rowid % 2 = 0 ORDER BY rowid;`,
      );
    } else {
      // Numbers of every other row one up, texts of every third row in capitals; keys kept.
      for (const c of cols.filter((c) => c.pk === 0)) {
        const n = q(c.name);
        out.push(
          `UPDATE OR IGNORE ${t} SET ${n} = ${n} + 1 WHERE rowid % 2 = 1 AND typeof(${n}) IN ('integer', 'real');`,
          `UPDATE OR IGNORE ${t} SET ${n} = upper(${n}) WHERE rowid % 3 = 1 AND typeof(${n}) = 'text';`,
        );
      }
    }
  }
  return out.join("\n");
}

/**
 * Writes the test suite of one database: `folder/<db_id>.sqlite` (a copy of
 * `source`) and `folder/<db_id>_<copy>.sqlite` for each of
 * {@link TEST_SUITE_COPIES}.
 *
 * @param source the database
 * @param folder the folder to write (created)
 * @param dbId the database's name
 * @returns the files written, the database's own first
 */
export function writeTestSuite(source: string, folder: string, dbId: string): string[] {
  fs.mkdirSync(folder, { recursive: true });
  const own = path.join(folder, `${dbId}.sqlite`);
  fs.copyFileSync(source, own);
  const files = [own];
  for (const copy of TEST_SUITE_COPIES) {
    const file = path.join(folder, `${dbId}_${copy}.sqlite`);
    fs.copyFileSync(source, file);
    const db = new DatabaseSync(file);
    try {
      // Spider's keys are not all kept by its rows, and Python's sqlite3 does not enforce them.
      db.exec(
        `PRAGMA foreign_keys = OFF; PRAGMA synchronous = OFF; BEGIN;\n${
          changes(db, copy)
        }\nCOMMIT;`,
      );
    } finally {
      db.close();
    }
    files.push(file);
  }
  return files;
}

/**
 * Writes the test suites of every database of a Spider database folder.
 *
 * @param databases Spider's `database/` (`<db_id>/<db_id>.sqlite`)
 * @param out the folder to write, laid out the same way
 * @returns the db_ids written
 */
export function writeTestSuites(databases: string, out: string): string[] {
  const ids = fs.readdirSync(databases).filter((d) =>
    fs.existsSync(path.join(databases, d, `${d}.sqlite`))
  ).sort();
  for (const id of ids) {
    writeTestSuite(path.join(databases, id, `${id}.sqlite`), path.join(out, id), id);
  }
  return ids;
}

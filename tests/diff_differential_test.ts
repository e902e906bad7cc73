/**
 * Differential test of `db diff`: seeded random database pairs, diffed by
 * the CLI (or the binary) in one folder diff, checked against references
 * computed another way:
 * - keyed tables: `sqldiff --primarykey --summary` (SQLite's own tool, an
 *   independent implementation in C);
 * - keyless tables: a multiset count in SQL, run by the `sqlite3` shell over
 *   the two files attached;
 * - changed cells (`counts.changed_cells`): the paired rows' differing
 *   columns summed, in SQL by the `sqlite3` shell;
 * - the schema plane: what the generator did (columns added, indexes, views
 *   and triggers created or dropped).
 * The pairs cover rowid, TEXT, NOCASE, composite, WITHOUT ROWID, STRICT,
 * generated-column and keyless tables, big integers, REALs, BLOBs and
 * non-ASCII text, UTF-8 and UTF-16 (every second pair), page sizes from 512 to 65536, after sides edited in place
 * (so the page comparison skips), left in a pending -wal, or VACUUMed.
 *
 * DBAGENTEVAL_DIFF_PAIRS=2000 runs more pairs (default 120),
 * DBAGENTEVAL_DIFF_SEED another seed.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import process from "node:process";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { buildPair, type Pair, type TableSpec } from "./diff_pairs.ts";
import { needs } from "./system_packages.ts";
import { diffSqliteDatabases } from "../mod.ts";

const PAIRS = Number(process.env["DBAGENTEVAL_DIFF_PAIRS"] ?? 120);
const SEED = Number(process.env["DBAGENTEVAL_DIFF_SEED"] ?? 20261201);

const dir = tempDir("dbagenteval-differential-");
after(() => dir.cleanup());

/** `sqldiff --primarykey --summary`: per table, [changed, added, removed]. */
function sqldiffSummary(
  a: string,
  b: string,
  byRowid = false,
): Map<string, [number, number, number]> {
  const flags = byRowid ? ["--summary"] : ["--primarykey", "--summary"];
  const r = spawnSync("sqldiff", [...flags, a, b], { encoding: "utf8" });
  assert.equal(r.status, 0, `sqldiff failed: ${r.stderr}`);
  const out = new Map<string, [number, number, number]>();
  for (const line of r.stdout.split("\n")) {
    const m = /^(\S+): (\d+) changes, (\d+) inserts, (\d+) deletes/.exec(line);
    if (m) out.set(m[1]!, [Number(m[2]), Number(m[3]), Number(m[4])]);
  }
  return out;
}

/** A keyless table's multiset difference in SQL: [added, removed]. */
function multisetCounts(a: string, b: string, t: TableSpec): [number, number] {
  const cols = t.valueCols.join(", ");
  const sql = `ATTACH '${b.replaceAll("'", "''")}' AS aft;
    SELECT coalesce(sum(CASE WHEN n < 0 THEN -n END), 0), coalesce(sum(CASE WHEN n > 0 THEN n END), 0)
    FROM (SELECT sum(s) AS n FROM (SELECT ${cols}, 1 AS s FROM main.${t.name}
      UNION ALL SELECT ${cols}, -1 FROM aft.${t.name}) GROUP BY ${cols});`;
  const r = spawnSync("sqlite3", ["-readonly", a, sql], { encoding: "utf8" });
  assert.equal(r.status, 0, `sqlite3 failed: ${r.stderr}`);
  const [added, removed] = r.stdout.trim().split("|").map(Number);
  return [added!, removed!];
}

/**
 * Paired rows that differ, for a table that gained the column `extra`
 * (sqldiff compares only the columns both sides have): a common value
 * differs, or `extra` holds a value (its default is NULL).
 */
function changedWithExtra(a: string, b: string, t: TableSpec): number {
  const on = t.keyCols.map((c) => `A.${c} = B.${c}`).join(" AND ");
  const differs = t.valueCols.map((c) => `A.${c} IS NOT B.${c}`).join(" OR ");
  const sql = `ATTACH '${b.replaceAll("'", "''")}' AS aft;
    SELECT count(*) FROM main.${t.name} AS A JOIN aft.${t.name} AS B ON ${on}
    WHERE B.extra IS NOT NULL OR ${differs};`;
  const r = spawnSync("sqlite3", ["-readonly", a, sql], { encoding: "utf8" });
  assert.equal(r.status, 0, `sqlite3 failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

/**
 * Paired rows' changed cells, in SQL: over the rows the key pairs, each
 * column (of the after side; one the before side lacks compares with its
 * NULL default) whose values differ, byte for byte.
 */
function changedCells(a: string, b: string, t: TableSpec): number {
  const shell = (db: string, sql: string): string => {
    const r = spawnSync("sqlite3", ["-readonly", db, sql], { encoding: "utf8" });
    assert.equal(r.status, 0, `sqlite3 failed: ${r.stderr}`);
    return r.stdout.trim();
  };
  const names = (db: string) =>
    shell(db, `SELECT name FROM pragma_table_xinfo('${t.name}') WHERE hidden != 1`).split("\n");
  const before = new Set(names(a));
  const cells = names(b).map((c) =>
    before.has(c) ? `(+A.${c} IS NOT +B.${c} COLLATE BINARY)` : `(B.${c} IS NOT NULL)`
  );
  const on = t.keyCols.map((c) => `A.${c} = B.${c}`).join(" AND ");
  return Number(shell(
    a,
    `ATTACH '${b.replaceAll("'", "''")}' AS aft;
    SELECT coalesce(sum(${cells.join(" + ")}), 0)
    FROM main.${t.name} AS A JOIN aft.${t.name} AS B ON ${on};`,
  ));
}

/** Runs SQL in the sqlite3 shell over `a` with `b` attached as `aft`; its output. */
function shell(a: string, b: string, sql: string): string {
  const r = spawnSync("sqlite3", [
    "-readonly",
    a,
    `ATTACH '${b.replaceAll("'", "''")}' AS aft; ${sql}`,
  ], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, `sqlite3 failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** A table's columns on each side, generated ones included: [before, after]. */
function columnsOf(a: string, b: string, table: string): [string[], string[]] {
  const list = (schema: string) =>
    `SELECT coalesce(group_concat(name, ','), '') FROM ${schema}.pragma_table_xinfo('${table}') WHERE hidden != 1`;
  const [x, y] = shell(a, b, `${list("main")}; ${list("aft")};`).split("\n");
  return [x!.split(","), y!.split(",")];
}

/**
 * The diff of a table with some columns left out, in SQL: keyed tables
 * joined on their key (changed rows, their changed cells, added and removed
 * rows), keyless ones as a multiset of the kept columns. [changed, added,
 * removed, cells].
 */
function ignoringReference(
  a: string,
  b: string,
  t: TableSpec,
  ignored: (column: string) => boolean,
): [number, number, number, number] {
  const [x, y] = columnsOf(a, b, t.name);
  const before = new Set(x);
  const cols = y.filter((c) => before.has(c) && !ignored(c));
  const A = `main.${t.name}`;
  const B = `aft.${t.name}`;
  if (t.shape === "keyless") {
    const list = cols.join(", ");
    const [added, removed] = shell(
      a,
      b,
      `SELECT coalesce(sum(CASE WHEN n < 0 THEN -n END), 0), coalesce(sum(CASE WHEN n > 0 THEN n END), 0)
       FROM (SELECT sum(s) AS n FROM (SELECT ${list}, 1 AS s FROM ${A}
         UNION ALL SELECT ${list}, -1 FROM ${B}) GROUP BY ${list});`,
    ).split("|").map(Number);
    return [0, added!, removed!, 0];
  }
  const on = t.keyCols.map((c) => `A.${c} = B.${c}`).join(" AND ");
  const cells = cols.map((c) => `(+A.${c} IS NOT +B.${c} COLLATE BINARY)`).join(" + ");
  const only = (x: string, y: string) =>
    `(SELECT count(*) FROM ${x} AS A WHERE NOT EXISTS (SELECT 1 FROM ${y} AS B WHERE ${on}))`;
  const [changed, added, removed, sum] = shell(
    a,
    b,
    `SELECT count(*), ${only(B, A)}, ${only(A, B)}, coalesce(sum(d), 0)
     FROM (SELECT ${cells} AS d FROM ${A} AS A JOIN ${B} AS B ON ${on}) WHERE d > 0;`,
  ).split("|").map(Number);
  return [changed!, added!, removed!, sum!];
}

describe(`db diff against independent references (${PAIRS} seeded pairs, seed ${SEED})`, {
  skip: needs("sqlite3", "sqldiff"),
}, () => {
  it("db diff --json agrees with sqldiff and SQL on every table of every pair", {
    timeout: 600_000,
  }, async () => {
    const beforeDir = dir.file("before");
    const afterDir = dir.file("after");
    fs.mkdirSync(beforeDir);
    fs.mkdirSync(afterDir);
    const pairs: Pair[] = [];
    for (let n = 0; n < PAIRS; n++) {
      pairs.push(
        buildPair(n, SEED + n, `${beforeDir}/p${n}.db`, `${afterDir}/p${n}.db`, false, true),
      );
    }
    // Our diff runs first: the references open the files read-write and
    // may checkpoint a pending -wal.
    const json = dir.file("diff.json");
    const r = runCli(["db", "diff", beforeDir, afterDir, "--json", json, "--max-rows", "0"]);
    assert.equal(r.code, 0, r.stderr);
    const diff = JSON.parse(fs.readFileSync(json, "utf8")) as {
      databases: {
        name: string;
        tables: {
          name: string;
          key_kind: string;
          counts: { added: number; removed: number; changed: number; changed_cells: number };
          columns: { added: { name: string }[] };
        }[];
        objects: { type: string; name: string; status: string }[];
      }[];
    };
    const mismatches: string[] = [];
    const cellsOf = new Map<string, number>();
    let tablesChecked = 0;
    for (const pair of pairs) {
      const db = diff.databases.find((d) => d.name === pair.name);
      const a = `${beforeDir}/${pair.name}`;
      const b = `${afterDir}/${pair.name}`;
      const objects = (db?.objects ?? []).map((o) => `${o.type} ${o.name} ${o.status}`).sort();
      if (JSON.stringify(objects) !== JSON.stringify([...pair.objects].sort())) {
        mismatches.push(`${pair.name}: objects ${JSON.stringify(objects)}, made ${pair.objects}`);
      }
      const reference = sqldiffSummary(a, b);
      for (const t of pair.tables) {
        tablesChecked++;
        const ours = db?.tables.find((x) => x.name === t.name);
        const counts = ours?.counts ?? { added: 0, removed: 0, changed: 0 };
        const added = (ours?.columns.added ?? []).map((c) => c.name);
        if (JSON.stringify(added) !== JSON.stringify(pair.addedColumns.get(t.name) ?? [])) {
          mismatches.push(`${pair.name} ${t.name}: columns added ${added}`);
        }
        let want: [number, number, number];
        if (t.shape === "keyless") {
          const [ad, rm] = multisetCounts(a, b, t);
          want = [0, ad, rm];
        } else want = reference.get(t.name) ?? [0, 0, 0];
        if (pair.addedColumns.has(t.name)) want = [changedWithExtra(a, b, t), want[1], want[2]];
        const got: [number, number, number] = [counts.changed, counts.added, counts.removed];
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          mismatches.push(
            `${pair.name} ${t.name} (${t.shape}): ours changed/added/removed ${got}, reference ${want}`,
          );
        }
        const cells = t.shape === "keyless" ? 0 : changedCells(a, b, t);
        cellsOf.set(`${pair.name} ${t.name}`, cells);
        if ((ours?.counts.changed_cells ?? 0) !== cells) {
          mismatches.push(
            `${pair.name} ${t.name} (${t.shape}): ours ${ours?.counts.changed_cells} changed cells, reference ${cells}`,
          );
        }
      }
    }
    assert.deepEqual(mismatches, [], `${mismatches.length} of ${tablesChecked} tables differ`);
    assert.ok(tablesChecked >= PAIRS);

    // --rowid pairs rowid tables (keyless ones too) by rowid, as plain sqldiff does.
    const rowidJson = dir.file("diff-rowid.json");
    const rr = runCli([
      "db",
      "diff",
      beforeDir,
      afterDir,
      "--rowid",
      "--json",
      rowidJson,
      "--max-rows",
      "0",
    ]);
    assert.equal(rr.code, 0, rr.stderr);
    const byRowid = JSON.parse(fs.readFileSync(rowidJson, "utf8")) as typeof diff;
    const rowidMismatches: string[] = [];
    for (const pair of pairs) {
      const db = byRowid.databases.find((d) => d.name === pair.name);
      const reference = sqldiffSummary(
        `${beforeDir}/${pair.name}`,
        `${afterDir}/${pair.name}`,
        true,
      );
      for (const t of pair.tables) {
        // sqldiff compares only the columns both sides have.
        if (pair.addedColumns.has(t.name)) continue;
        const c = db?.tables.find((x) => x.name === t.name)?.counts ??
          { added: 0, removed: 0, changed: 0 };
        const got = [c.changed, c.added, c.removed];
        const want = reference.get(t.name) ?? [0, 0, 0];
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          rowidMismatches.push(
            `${pair.name} ${t.name} (${t.shape}): --rowid ${got}, sqldiff ${want}`,
          );
        }
      }
    }
    assert.deepEqual(rowidMismatches, []);

    // Aimed: every keyed table paired by its key columns named as a chosen
    // key (the engine compares every row, after checking the key unique),
    // against sqldiff; then columns left out too, against SQL.
    const IGNORE = ["b", "t*.c", "?xtra"];
    const ignored = (table: string, column: string): boolean =>
      column === "b" || (column === "c" && table.startsWith("t")) || /^.xtra$/.test(column);
    const aimedMismatches: string[] = [];
    for (const pair of pairs) {
      const a = `${beforeDir}/${pair.name}`;
      const b = `${afterDir}/${pair.name}`;
      const keys = Object.fromEntries(
        pair.tables.filter((t) => t.shape !== "keyless").map((t) => [t.name, t.keyCols]),
      );
      const byKey = (await diffSqliteDatabases(a, b, { keys, maxRows: 0 })).databases[0];
      const both = (await diffSqliteDatabases(a, b, { keys, ignore: IGNORE, maxRows: 0 }))
        .databases[0];
      const reference = sqldiffSummary(a, b);
      for (const t of pair.tables) {
        const zero = { added: 0, removed: 0, changed: 0, changed_cells: 0 };
        if (t.shape !== "keyless" && !pair.addedColumns.has(t.name)) {
          const c = byKey?.tables.find((x) => x.name === t.name)?.counts ?? zero;
          const want = reference.get(t.name) ?? [0, 0, 0];
          const got = [c.changed, c.added, c.removed];
          const cells = cellsOf.get(`${pair.name} ${t.name}`);
          if (JSON.stringify(got) !== JSON.stringify(want) || c.changed_cells !== cells) {
            aimedMismatches.push(
              `${pair.name} ${t.name} (${t.shape}): --key ${got} (${c.changed_cells} cells), sqldiff ${want} (${cells} cells)`,
            );
          }
        }
        const c = both?.tables.find((x) => x.name === t.name)?.counts ?? zero;
        const got = [c.changed, c.added, c.removed, c.changed_cells];
        const want = ignoringReference(a, b, t, (col) => ignored(t.name, col));
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          aimedMismatches.push(
            `${pair.name} ${t.name} (${t.shape}): --key --ignore ${got}, SQL ${want}`,
          );
        }
      }
    }
    assert.deepEqual(aimedMismatches, []);
  });
});

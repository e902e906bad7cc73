/**
 * `db diff --sql` round trip: for seeded random pairs (tests/diff_pairs.ts)
 * the SQL is applied to a copy of the before file with the `sqlite3` shell,
 * and to an in-memory copy with our own engine (the WASM build); each result
 * diffed against the after file must show no difference, and `sqldiff`
 * must print nothing for it (sqldiff pairs keyless rows by rowid, which the
 * SQL does not keep, so keyless tables are left to our multiset diff).
 *
 * DBAGENTEVAL_SQL_PAIRS=500 runs more pairs (default 40).
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import process from "node:process";
import { openMemoryDatabase } from "../lib/sqlite/database.ts";
import { loadSqlite } from "../lib/sqlite/wasm.ts";
import { streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
import { SqlRenderer } from "../lib/diff/render_sql.ts";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { buildPair } from "./diff_pairs.ts";
import { needs } from "./system_packages.ts";

const PAIRS = Number(process.env["DBAGENTEVAL_SQL_PAIRS"] ?? 40);
const SEED = 5150;
/** The first pairs go through the CLI (or the binary); the rest through the library. */
const THROUGH_CLI = 4;

const dir = tempDir("dbagenteval-sql-roundtrip-");
after(() => dir.cleanup());

/** Applies `sql` to an in-memory copy of `file` with our engine and writes the result to `out`. */
async function applyWithEngine(file: string, sql: string, out: string): Promise<void> {
  const sqlite = await loadSqlite();
  const db = await openMemoryDatabase();
  try {
    const bytes = fs.readFileSync(file);
    bytes[18] = 1; // a WAL-mode header cannot be deserialized; the pages are the same
    bytes[19] = 1;
    const capi = sqlite.capi as unknown as {
      sqlite3_malloc(n: number): number;
      sqlite3_deserialize(
        db: number,
        schema: string,
        data: number,
        size: number,
        buffer: number,
        flags: number,
      ): number;
    };
    const p = capi.sqlite3_malloc(Math.max(bytes.length, 1));
    sqlite.wasm.heap8u().set(bytes, p);
    // SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE
    const rc = capi.sqlite3_deserialize(db.handle, "main", p, bytes.length, bytes.length, 1 | 2);
    assert.equal(rc, 0, "sqlite3_deserialize failed");
    db.exec(sql);
    fs.writeFileSync(out, sqlite.capi.sqlite3_js_db_export(db.handle));
  } finally {
    db.close();
  }
}

async function unchanged(a: string, b: string): Promise<string[]> {
  const diff = await diffSqliteDatabases(a, b, { maxRows: 3 });
  const d = diff.databases[0]!;
  return [
    ...d.tables.filter((t) => t.status !== "unchanged").map((t) =>
      `${t.name}: ${t.status} ${JSON.stringify(t.counts)} ${
        JSON.stringify(structuredClone(t.rows), (_k, v) => typeof v === "bigint" ? `${v}n` : v)
      }`
    ),
    ...d.objects.map((o) => `${o.type} ${o.name}: ${o.status}`),
  ];
}

describe(
  `db diff --sql round trip (${PAIRS} seeded pairs)`,
  { skip: needs("sqlite3", "sqldiff") },
  () => {
    it("turns before into after, applied by the sqlite3 shell and by our engine", {
      timeout: 600_000,
    }, async () => {
      const problems: string[] = [];
      for (let n = 0; n < PAIRS; n++) {
        const a = dir.file(`a${n}.db`);
        const b = dir.file(`b${n}.db`);
        const pair = buildPair(n, SEED + n, a, b);
        const sqlFile = dir.file(`d${n}.sql`);
        if (n < THROUGH_CLI) {
          const r = runCli(["db", "diff", a, b, "--sql", sqlFile]);
          assert.equal(r.code, 0, r.stderr);
        } else {
          const fd = fs.openSync(sqlFile, "w");
          try {
            await streamSqliteDiff(
              a,
              b,
              {},
              new SqlRenderer({ write: (t) => fs.writeSync(fd, t) }),
            );
          } finally {
            fs.closeSync(fd);
          }
        }
        const sql = fs.readFileSync(sqlFile, "utf8");
        // The shell: on a byte copy of before.
        const shell = dir.file(`shell${n}.db`);
        fs.copyFileSync(a, shell);
        const r = spawnSync("sqlite3", ["-bail", shell], { input: sql, encoding: "utf8" });
        if (r.status !== 0 || r.stderr !== "") {
          problems.push(`p${n}: sqlite3 failed: ${r.stderr.trim()}`);
          continue;
        }
        for (const p of await unchanged(shell, b)) problems.push(`p${n} shell: ${p}`);
        // Our engine: on an in-memory copy of before.
        const engine = dir.file(`engine${n}.db`);
        try {
          await applyWithEngine(a, sql, engine);
          for (const p of await unchanged(engine, b)) problems.push(`p${n} engine: ${p}`);
        } catch (e) {
          problems.push(`p${n} engine: ${(e as Error).message}`);
        }
        // sqldiff last: it opens the after file read-write.
        const keyless = new Set(
          pair.tables.filter((t) => t.shape === "keyless").map((t) => t.name),
        );
        const s = spawnSync("sqldiff", ["--primarykey", shell, b], { encoding: "utf8" });
        const lines = s.stdout.split("\n").filter((l) => l !== "").filter((l) => {
          const m = /^(?:DELETE FROM|INSERT INTO|UPDATE) (\w+)/.exec(l);
          return m === null || !keyless.has(m[1]!);
        });
        if (s.status !== 0 || lines.length > 0) {
          problems.push(`p${n} sqldiff: ${s.stderr}${lines.slice(0, 3).join(" | ")}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  },
);

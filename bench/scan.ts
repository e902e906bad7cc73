/**
 * Engine scan benchmark: a key-ordered scan of a 6-column table through the
 * read-only VFS, beside the sqlite3 shell doing the same scan, at 2M rows
 * and (with --big) 20M rows, to show that memory stays flat.
 *
 *   deno run -A bench/scan.ts [--big] [--runs N]
 *
 * Data goes to bench/data/ (gitignored); it is generated once with the
 * sqlite3 shell (Debian package sqlite3).
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { spawnSync } from "node:child_process";
import { measure, median } from "./_measure.ts";

const here = import.meta.dirname!;
const dataDir = path.join(here, "data");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] || 3) || 3;
const sizes = args.includes("--big") ? [2_000_000, 20_000_000] : [2_000_000];

function generate(rows: number): string {
  const file = path.join(dataDir, `scan_${rows}.db`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dataDir, { recursive: true });
  const sql = `
    PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
    CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, email TEXT, score REAL, qty INTEGER, note TEXT);
    WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows})
    INSERT INTO t SELECT i, 'user ' || i, 'user' || i || '@example.com', i * 0.37, i % 1000,
      substr('lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod', 1 + i % 20, 40)
    FROM s;`;
  const r = spawnSync("sqlite3", [file], { input: sql, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return file;
}

const runtime = process.execPath;
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
const child = path.join(here, "_scan_child.ts");
const ours = (file: string) => isBun ? [runtime, child, file] : [runtime, "run", "-A", child, file];
const shell = (file: string) => ["sqlite3", "-readonly", file, "SELECT * FROM t ORDER BY id"];

console.log(`runtime: ${isBun ? "bun" : "deno"} ${isBun ? "" : Deno.version.deno}`);
for (const rows of sizes) {
  const file = generate(rows);
  const mb = fs.statSync(file).size / 1e6;
  const oursT: number[] = [];
  const shellT: number[] = [];
  let oursRss = 0;
  let shellRss = 0;
  for (let i = 0; i < runs; i++) {
    const a = measure(shell(file), { discardStdout: true });
    const b = measure(ours(file));
    if (!b.stdout.startsWith(`${rows} `)) throw new Error(`scan read ${b.stdout}`);
    shellT.push(a.seconds);
    oursT.push(b.seconds);
    shellRss = Math.max(shellRss, a.peakRssMb);
    oursRss = Math.max(oursRss, b.peakRssMb);
  }
  const o = median(oursT);
  const s = median(shellT);
  console.log(
    `${rows} rows (${mb.toFixed(0)} MB): ours ${o.toFixed(2)} s, sqlite3 shell ${
      s.toFixed(2)
    } s, ` +
      `ratio ${(o / s).toFixed(2)}; peak RSS ours ${oursRss.toFixed(0)} MB, shell ${
        shellRss.toFixed(0)
      } MB`,
  );
}

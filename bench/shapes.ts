/**
 * The diff benchmark at the table shapes real databases have, beyond rowid
 * tables with an INTEGER key. For each shape it generates a before and an
 * after file with the sqlite3 shell (into bench/data/shapes/, gitignored),
 * then runs `sqldiff` (with `--primarykey` where plain sqldiff would pair
 * rows by rowid) and ours alternately, and prints the median wall time, the
 * median ratio ours/sqldiff, the peak RSS of each, and whether our counts are
 * the expected ones.
 *
 * Shapes, at the sizes issue 20 names (every size times --scale, default 1):
 * - rebuilt20m / rebuilt5m: keyless, 20M / 5M rows; after = before less one
 *   row then VACUUM (every rowid moves); expects 1 removed;
 * - keyless: keyless, 5M rows; 1% deleted and re-inserted elsewhere;
 * - wr: WITHOUT ROWID, 2-column TEXT key, 2M rows, 1% updated;
 * - blobpk: BLOB PRIMARY KEY (rowid table), 1M rows, 1% updated;
 * - realpk: REAL PRIMARY KEY, 1M rows, 1% updated;
 * - blobs: 500 rows of 2 MB BLOBs, every BLOB changed;
 * - wide: 995 columns x 20k rows, 1% of cells changed (sqldiff stops at
 *   1,000 columns);
 * - wide2000: 2,000 columns (the key and 1,999) x 20k rows, the same change (ours only);
 * - tables: 5,000 small tables, one changed, diffed with --table t01562;
 * - tables_same: the same files, diffed with --table t00001 (unchanged).
 *
 * Usage: deno run -A bench/shapes.ts [--scale F] [--reps N] [--only a,b] [--bun] [--bin PATH]...
 *   [--keep-data]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const DATA = path.join(ROOT, "bench", "data", "shapes");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const scale = Number(arg("--scale") ?? 1);
const size = (n: number): number => Math.max(1, Math.round(n * scale));
const reps = Number(arg("--reps") ?? 3);
const only = arg("--only")?.split(",");

function sqlite(file: string, sql: string): void {
  const r = spawnSync("/usr/bin/sqlite3", [file], {
    input: `PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-100000;\n${sql}`,
    encoding: "utf8",
    stdio: ["pipe", "ignore", "pipe"],
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`sqlite3 ${file} failed: ${r.stderr}`);
}

const rows = (n: number): string =>
  `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})`;

interface Shape {
  readonly name: string;
  /** Rows (tables for `tables`), for the data file's name. */
  readonly size: number;
  readonly make: string;
  readonly change: string;
  /** Expected total counts over all tables. */
  readonly expect: { added: number; removed: number; changed: number };
  /** sqldiff pairs by rowid unless told --primarykey. */
  readonly primaryKey: boolean;
  readonly extra?: readonly string[];
  /** Whether sqldiff can diff it (false: ours only, no ratio). */
  readonly sqldiff?: boolean;
  /** Another shape whose files this one diffs (default its own). */
  readonly files?: string;
}

function rebuilt(name: string, n: number): Shape {
  return {
    name,
    size: n,
    make: `CREATE TABLE t(a INTEGER, b TEXT, c REAL); ${rows(n)}
      INSERT INTO t SELECT i % 1000, printf('row %09d', i), i / 7.0 FROM s;`,
    change: `DELETE FROM t WHERE rowid = ${Math.floor(n / 2)}; VACUUM;`,
    expect: { added: 0, removed: 1, changed: 0 },
    primaryKey: false,
  };
}

function wide(name: string, cols: number, n: number, sqldiff: boolean): Shape {
  const names = Array.from({ length: cols }, (_, i) => `c${i}`);
  return {
    name,
    size: n,
    make: `CREATE TABLE t(id INTEGER PRIMARY KEY, ${names.join(", ")}); ${rows(n)}
      INSERT INTO t SELECT i, ${names.map((_, j) => `i + ${j}`).join(", ")} FROM s;`,
    // 1% of cells: each row has cols/100 cells changed, in every row.
    change: `UPDATE t SET ${
      names.filter((_, j) => j % 100 === 0).map((c) => `${c} = -${c}`).join(", ")
    };`,
    expect: { added: 0, removed: 0, changed: n },
    primaryKey: false,
    sqldiff,
  };
}

const N1M = size(1_000_000);
const shapes: Shape[] = [
  rebuilt("rebuilt20m", size(20_000_000)),
  rebuilt("rebuilt5m", size(5_000_000)),
  {
    name: "keyless",
    size: size(5_000_000),
    make: `CREATE TABLE t(a INTEGER, b TEXT, c REAL); ${rows(size(5_000_000))}
      INSERT INTO t SELECT i % 1000, printf('row %09d', i), i / 7.0 FROM s;`,
    change: `CREATE TEMP TABLE m AS SELECT a, b, c FROM t WHERE rowid % 100 = 0;
      DELETE FROM t WHERE rowid % 100 = 0; INSERT INTO t SELECT * FROM m;`,
    expect: { added: 0, removed: 0, changed: 0 },
    primaryKey: false,
  },
  {
    name: "wr",
    size: size(2_000_000),
    make: `CREATE TABLE t(k1 TEXT, k2 TEXT, v INTEGER, w TEXT, PRIMARY KEY(k1, k2)) WITHOUT ROWID;
      ${rows(size(2_000_000))} INSERT INTO t SELECT printf('k%07d', i / 10),
      printf('sub-%d', i % 10), i, printf('value %d', i) FROM s;`,
    change: `UPDATE t SET v = v + 1 WHERE v % 100 = 0;`,
    expect: { added: 0, removed: 0, changed: Math.floor(size(2_000_000) / 100) },
    primaryKey: true,
  },
  {
    name: "blobpk",
    size: N1M,
    make: `CREATE TABLE t(k BLOB PRIMARY KEY, v INTEGER); ${rows(N1M)}
      INSERT INTO t SELECT cast(printf('key-%09d', i) AS BLOB), i FROM s;`,
    change: `UPDATE t SET v = v + 1 WHERE v % 100 = 0;`,
    expect: { added: 0, removed: 0, changed: Math.floor(N1M / 100) },
    primaryKey: true,
  },
  {
    name: "realpk",
    size: N1M,
    make: `CREATE TABLE t(k REAL PRIMARY KEY, v INTEGER); ${rows(N1M)}
      INSERT INTO t SELECT i + 0.5, i FROM s;`,
    change: `UPDATE t SET v = v + 1 WHERE v % 100 = 0;`,
    expect: { added: 0, removed: 0, changed: Math.floor(N1M / 100) },
    primaryKey: true,
  },
  {
    name: "blobs",
    size: size(500),
    make: `CREATE TABLE t(id INTEGER PRIMARY KEY, b BLOB); ${rows(size(500))}
      INSERT INTO t SELECT i, randomblob(2000000) FROM s;`,
    change: `UPDATE t SET b = randomblob(2000000);`,
    expect: { added: 0, removed: 0, changed: size(500) },
    primaryKey: false,
  },
  wide("wide", 995, size(20_000), true),
  // 1,999 columns and the key: SQLite allows a table 2,000 columns.
  wide("wide2000", 1999, size(20_000), false),
  {
    name: "tables",
    size: 5000,
    make: Array.from({ length: 5000 }, (_, i) => {
      const t = `t${String(i).padStart(5, "0")}`;
      return `CREATE TABLE ${t}(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO ${t} VALUES (1, 'a'), (2, 'b');`;
    }).join("\n"),
    change: `UPDATE t01562 SET v = 'changed' WHERE id = 1;`,
    expect: { added: 0, removed: 0, changed: 1 },
    primaryKey: false,
    extra: ["--table", "t01562"],
  },
];
// The same files, a table that did not change: no engine needed.
shapes.push({
  ...shapes.find((s) => s.name === "tables")!,
  name: "tables_same",
  files: "tables",
  expect: { added: 0, removed: 0, changed: 0 },
  extra: ["--table", "t00001"],
});

interface Run {
  readonly seconds: number;
  readonly maxRssKb: number;
  /** User plus system CPU seconds: less moved by other processes than wall time on a busy machine. */
  readonly cpu: number;
}

function timed(cmd: string[]): Run {
  const r = spawnSync("/usr/bin/time", ["-v", ...cmd], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(`${cmd.join(" ")} failed: ${r.stderr.slice(-2000)}`);
  }
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(
    r.stderr,
  );
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  if (wall === null || rss === null) throw new Error(`no /usr/bin/time figures: ${r.stderr}`);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const user = Number(/User time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
  const system = Number(/System time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
  return { seconds, maxRssKb: Number(rss[1]), cpu: user + system };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Counts {
  added: number;
  removed: number;
  changed: number;
}

function countsOf(json: string): Counts {
  const doc = JSON.parse(fs.readFileSync(json, "utf8"));
  const out = { added: 0, removed: 0, changed: 0 };
  for (const t of doc.databases[0]?.tables ?? []) {
    out.added += Number(t.counts.added);
    out.removed += Number(t.counts.removed);
    out.changed += Number(t.counts.changed);
  }
  return out;
}

const deno = process.execPath;
const bins = process.argv.flatMap((a, i) => (a === "--bin" ? [process.argv[i + 1]!] : []));
const ourCommands: [string, string[]][] = [
  ["deno run", [deno, "run", "-A", "--quiet", "cli.ts"]],
  ...(process.argv.includes("--bun") ? [["bun", ["bun", "cli.ts"]] as [string, string[]]] : []),
  ...bins.map((b): [string, string[]] => [b, [path.resolve(b)]]),
];
fs.mkdirSync(DATA, { recursive: true });
console.log(`scale=${scale} reps=${reps}`);
for (const shape of shapes) {
  if (only !== undefined && !only.includes(shape.name)) continue;
  const before = path.join(DATA, `${shape.files ?? shape.name}_${shape.size}_before.db`);
  const after = path.join(DATA, `${shape.files ?? shape.name}_${shape.size}_after.db`);
  if (!fs.existsSync(after)) {
    fs.rmSync(before, { force: true });
    const t0 = performance.now();
    sqlite(before, shape.make);
    fs.copyFileSync(before, after);
    sqlite(after, shape.change);
    console.log(`${shape.name}: generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const json = path.join(DATA, `${shape.name}.json`);
  const theirs: Run[] = [];
  const ours = ourCommands.map((): { runs: Run[]; ratios: number[] } => ({ runs: [], ratios: [] }));
  const wrong: string[] = [];
  let counts: Counts | null = null;
  const withSqldiff = shape.sqldiff ?? true;
  const pk = shape.primaryKey ? "--primarykey " : "";
  const table = shape.extra ? `--table ${shape.extra[1]} ` : "";
  for (let i = 0; i < reps; i++) {
    const s = withSqldiff
      ? timed(["sh", "-c", `/usr/bin/sqldiff ${pk}${table}"${before}" "${after}" > /dev/null`])
      : null;
    if (s !== null) theirs.push(s);
    ourCommands.forEach(([, cmd], k) => {
      const o = timed([
        ...cmd,
        "db",
        "diff",
        before,
        after,
        ...(shape.extra ?? []),
        "--json",
        json,
      ]);
      counts = countsOf(json);
      if (JSON.stringify(counts) !== JSON.stringify(shape.expect)) {
        wrong.push(`${ourCommands[k]![0]}: ${JSON.stringify(counts)}`);
      }
      ours[k]!.runs.push(o);
      if (s !== null) ours[k]!.ratios.push(o.seconds / s.seconds);
    });
  }
  fs.rmSync(json, { force: true });
  const mb = (runs: Run[]): string => (Math.max(...runs.map((r) => r.maxRssKb)) / 1024).toFixed(0);
  const verdict = wrong.length === 0 ? "right" : `WRONG (${wrong.join("; ")})`;
  const anchor = withSqldiff
    ? `sqldiff ${pk}${median(theirs.map((r) => r.seconds)).toFixed(2)} s (CPU ${
      median(theirs.map((r) => r.cpu)).toFixed(2)
    } s), peak RSS ${mb(theirs)} MB`
    : "sqldiff cannot diff it";
  console.log(
    `${shape.name} (${shape.size}): ${anchor}; counts ${JSON.stringify(counts)} ${verdict}`,
  );
  ourCommands.forEach(([label], k) => {
    const { runs, ratios } = ours[k]!;
    console.log(
      `  ${label}: ${median(runs.map((r) => r.seconds)).toFixed(2)} s, median ratio ${
        ratios.length > 0 ? median(ratios).toFixed(2) : "-"
      }, CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s, peak RSS ${mb(runs)} MB`,
    );
  });
  if (!process.argv.includes("--keep-data")) {
    fs.rmSync(before, { force: true });
    fs.rmSync(after, { force: true });
  }
}

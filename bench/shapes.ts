/**
 * The diff benchmark at the table shapes real databases have, beyond rowid
 * tables with an INTEGER key. For each shape it generates a before and an
 * after file with the sqlite3 shell (into bench/data/shapes/, gitignored),
 * then runs `sqldiff` (with `--primarykey` where plain sqldiff would pair
 * rows by rowid) and ours alternately, and prints the median wall time, the
 * median ratio ours/sqldiff, the peak RSS of each, and whether our counts are
 * the expected ones.
 *
 * Shapes (n = --rows, default 1M):
 * - rebuilt: keyless, n rows; after = before less one row then VACUUM (every
 *   rowid moves); expects 1 removed;
 * - keyless: keyless, n rows; 1% deleted and re-inserted elsewhere;
 * - wr: WITHOUT ROWID, 2-column TEXT key, n/2 rows, 1% updated;
 * - blobpk: BLOB PRIMARY KEY (rowid table), n/5 rows, 1% updated;
 * - realpk: REAL PRIMARY KEY, n/5 rows, 1% updated;
 * - blobs: --blobs rows (default 100) of 2 MB BLOBs, every BLOB changed;
 * - wide: --cols columns (default 1000) x 20k rows, 1% of cells changed;
 * - tables: 5,000 small tables, one changed, diffed with --table t01562.
 *
 * Usage: deno run -A bench/shapes.ts [--rows N] [--reps N] [--only a,b] [--bun] [--bin PATH]...
 *   [--blobs N] [--cols N] [--keep-data]
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
const N = Number(arg("--rows") ?? 1_000_000);
const reps = Number(arg("--reps") ?? 3);
const blobs = Number(arg("--blobs") ?? 100);
const cols = Number(arg("--cols") ?? 1000);
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
  readonly make: string;
  readonly change: string;
  /** Expected total counts over all tables. */
  readonly expect: { added: number; removed: number; changed: number };
  /** sqldiff pairs by rowid unless told --primarykey. */
  readonly primaryKey: boolean;
  readonly extra?: readonly string[];
}

const wideCols = Array.from({ length: cols }, (_, i) => `c${i}`);
const shapes: Shape[] = [
  {
    name: "rebuilt",
    make: `CREATE TABLE t(a INTEGER, b TEXT, c REAL); ${rows(N)}
      INSERT INTO t SELECT i % 1000, printf('row %09d', i), i / 7.0 FROM s;`,
    change: `DELETE FROM t WHERE rowid = ${Math.floor(N / 2)}; VACUUM;`,
    expect: { added: 0, removed: 1, changed: 0 },
    primaryKey: false,
  },
  {
    name: "keyless",
    make: `CREATE TABLE t(a INTEGER, b TEXT, c REAL); ${rows(N)}
      INSERT INTO t SELECT i % 1000, printf('row %09d', i), i / 7.0 FROM s;`,
    change: `CREATE TEMP TABLE m AS SELECT a, b, c FROM t WHERE rowid % 100 = 0;
      DELETE FROM t WHERE rowid % 100 = 0; INSERT INTO t SELECT * FROM m;`,
    expect: { added: 0, removed: 0, changed: 0 },
    primaryKey: false,
  },
  {
    name: "wr",
    make: `CREATE TABLE t(k1 TEXT, k2 TEXT, v INTEGER, w TEXT, PRIMARY KEY(k1, k2)) WITHOUT ROWID;
      ${rows(N / 2)} INSERT INTO t SELECT printf('k%07d', i / 10), printf('sub-%d', i % 10), i,
      printf('value %d', i) FROM s;`,
    change: `UPDATE t SET v = v + 1 WHERE v % 100 = 0;`,
    expect: { added: 0, removed: 0, changed: N / 200 },
    primaryKey: true,
  },
  {
    name: "blobpk",
    make: `CREATE TABLE t(k BLOB PRIMARY KEY, v INTEGER); ${rows(N / 5)}
      INSERT INTO t SELECT cast(printf('key-%09d', i) AS BLOB), i FROM s;`,
    change: `UPDATE t SET v = v + 1 WHERE v % 100 = 0;`,
    expect: { added: 0, removed: 0, changed: N / 500 },
    primaryKey: true,
  },
  {
    name: "realpk",
    make: `CREATE TABLE t(k REAL PRIMARY KEY, v INTEGER); ${rows(N / 5)}
      INSERT INTO t SELECT i + 0.5, i FROM s;`,
    change: `UPDATE t SET v = v + 1 WHERE v % 100 = 0;`,
    expect: { added: 0, removed: 0, changed: N / 500 },
    primaryKey: true,
  },
  {
    name: "blobs",
    make: `CREATE TABLE t(id INTEGER PRIMARY KEY, b BLOB); ${rows(blobs)}
      INSERT INTO t SELECT i, randomblob(2000000) FROM s;`,
    change: `UPDATE t SET b = randomblob(2000000);`,
    expect: { added: 0, removed: 0, changed: blobs },
    primaryKey: false,
  },
  {
    name: "wide",
    make: `CREATE TABLE t(id INTEGER PRIMARY KEY, ${wideCols.join(", ")}); ${rows(20_000)}
      INSERT INTO t SELECT i, ${wideCols.map((_, j) => `i + ${j}`).join(", ")} FROM s;`,
    // 1% of cells: each row has cols/100 cells changed, in every row.
    change: `UPDATE t SET ${
      wideCols.filter((_, j) => j % 100 === 0).map((c) => `${c} = -${c}`).join(", ")
    };`,
    expect: { added: 0, removed: 0, changed: 20_000 },
    primaryKey: false,
  },
  {
    name: "tables",
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

interface Run {
  readonly seconds: number;
  readonly maxRssKb: number;
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
  return { seconds, maxRssKb: Number(rss[1]) };
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
console.log(`rows=${N} blobs=${blobs} cols=${cols} reps=${reps}`);
for (const shape of shapes) {
  if (only !== undefined && !only.includes(shape.name)) continue;
  const before = path.join(DATA, `${shape.name}_${N}_before.db`);
  const after = path.join(DATA, `${shape.name}_${N}_after.db`);
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
  let counts: Counts | null = null;
  const pk = shape.primaryKey ? "--primarykey " : "";
  const table = shape.extra ? `--table ${shape.extra[1]} ` : "";
  for (let i = 0; i < reps; i++) {
    const s = timed([
      "sh",
      "-c",
      `/usr/bin/sqldiff ${pk}${table}"${before}" "${after}" > /dev/null`,
    ]);
    theirs.push(s);
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
      counts ??= countsOf(json);
      ours[k]!.runs.push(o);
      ours[k]!.ratios.push(o.seconds / s.seconds);
    });
  }
  fs.rmSync(json, { force: true });
  const mb = (runs: Run[]): string => (Math.max(...runs.map((r) => r.maxRssKb)) / 1024).toFixed(0);
  const right = JSON.stringify(counts) === JSON.stringify(shape.expect);
  console.log(
    `${shape.name}: sqldiff ${pk}${median(theirs.map((r) => r.seconds)).toFixed(2)} s, peak RSS ${
      mb(theirs)
    } MB; counts ${JSON.stringify(counts)} ${right ? "right" : "WRONG"}`,
  );
  ourCommands.forEach(([label], k) => {
    const { runs, ratios } = ours[k]!;
    console.log(
      `  ${label}: ${median(runs.map((r) => r.seconds)).toFixed(2)} s, median ratio ${
        median(ratios).toFixed(2)
      }, peak RSS ${mb(runs)} MB`,
    );
  });
  if (!process.argv.includes("--keep-data")) {
    fs.rmSync(before, { force: true });
    fs.rmSync(after, { force: true });
  }
}

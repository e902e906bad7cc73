/**
 * Benchmark of the counterexample search on PostgreSQL: query pairs that
 * differ only under PostgreSQL's semantics (integer division, ILIKE,
 * DISTINCT ON, NULLs sorted last, a HAVING count, a LIMIT past the table,
 * NUMERIC with fractions, dates, booleans) and equivalent PostgreSQL
 * rewrites, on a small shop database and on the PostgreSQL edition of
 * Chinook, both as `pglite:FILE.sql`. Every claimed counterexample is
 * replayed in a fresh PGlite, where the two queries must differ.
 *
 *     deno run -A bench/counterexample_pg.ts [--cli]
 *
 * In-process, the engines are kept between searches as `run
 * --counterexamples` keeps them; `--cli` also runs each shop pair as one
 * `dbagenteval counterexample` process (PGlite started twice, the script
 * loaded). Anchors, measured in the same run: one PGlite start, and the
 * process start (`dbagenteval --version`).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { PGlite } from "@electric-sql/pglite";
import { findCounterexample } from "../lib/counterexample/search.ts";
import { keepPgEngines } from "../lib/counterexample/pg_given.ts";
import { compareRows } from "../lib/compare/rows.ts";
import { pgliteParsers } from "../lib/databases/pg_types.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const cli = process.argv.includes("--cli");

const SHOP = fs.readFileSync(path.join(ROOT, "tests/data/shop_postgres.sql"), "utf8");

interface Pair {
  readonly db: "shop" | "chinook";
  readonly reference: string;
  readonly candidate: string;
  readonly differ: boolean;
  readonly ordered?: boolean;
}

const PAIRS: Pair[] = [
  // shop: near misses
  ["SELECT id FROM orders WHERE qty / 2 > 1", "SELECT id FROM orders WHERE qty > 2"],
  [
    "SELECT id FROM customers WHERE name ILIKE 'a%'",
    "SELECT id FROM customers WHERE name LIKE 'a%'",
  ],
  [
    "SELECT DISTINCT ON (customer_id) customer_id, price FROM orders ORDER BY customer_id, placed DESC",
    "SELECT customer_id, max(price) AS price FROM orders GROUP BY customer_id",
  ],
  [
    "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > 1",
    "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) >= 1",
  ],
  ["SELECT id FROM orders WHERE price > 3", "SELECT id FROM orders WHERE floor(price) >= 3"],
  [
    "SELECT id FROM orders WHERE placed < '2024-03-01'",
    "SELECT id FROM orders WHERE placed <= '2024-02-28'",
  ],
  ["SELECT id FROM customers WHERE vip", "SELECT id FROM customers WHERE id = 1"],
].map((x): Pair => ({ db: "shop", reference: x[0]!, candidate: x[1]!, differ: true }))
  .concat([
    {
      db: "shop",
      reference: "SELECT id FROM orders ORDER BY note, id LIMIT 2",
      candidate: "SELECT id FROM orders ORDER BY note NULLS FIRST, id LIMIT 2",
      differ: true,
      ordered: true,
    },
    {
      db: "shop",
      reference: "SELECT id FROM orders ORDER BY id",
      candidate: "SELECT id FROM orders ORDER BY id LIMIT 6",
      differ: true,
      ordered: true,
    },
  ])
  .concat(
    [
      ["SELECT count(*) AS n FROM orders", "SELECT count(1) AS n FROM orders"],
      [
        "SELECT id FROM orders WHERE qty BETWEEN 2 AND 7",
        "SELECT id FROM orders WHERE qty >= 2 AND qty <= 7",
      ],
      ["SELECT id FROM orders WHERE qty / 2 > 1", "SELECT id FROM orders WHERE qty >= 4"],
      ["SELECT id FROM orders WHERE price > 3", "SELECT id FROM orders WHERE price >= 3.01"],
      [
        "SELECT id FROM orders WHERE placed >= '2024-02-01'",
        "SELECT id FROM orders WHERE placed > '2024-01-31'",
      ],
      [
        "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > 1",
        "SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) >= 2",
      ],
      [
        "SELECT DISTINCT customer_id FROM orders",
        "SELECT customer_id FROM orders GROUP BY customer_id",
      ],
    ].map((x): Pair => ({ db: "shop", reference: x[0]!, candidate: x[1]!, differ: false })),
  )
  .concat(
    [
      [
        "SELECT count(*) AS n FROM track WHERE milliseconds > 300000",
        "SELECT count(*) AS n FROM track WHERE milliseconds >= 300000",
      ],
      [
        "SELECT name FROM artist WHERE name ILIKE 'a%'",
        "SELECT name FROM artist WHERE name LIKE 'A%'",
      ],
      [
        "SELECT count(*) AS n FROM invoice WHERE total > 20",
        "SELECT count(*) AS n FROM invoice WHERE total >= 20",
      ],
      [
        "SELECT album_id FROM track GROUP BY album_id HAVING count(*) > 20",
        "SELECT album_id FROM track GROUP BY album_id HAVING count(*) >= 20",
      ],
    ].map((x): Pair => ({ db: "chinook", reference: x[0]!, candidate: x[1]!, differ: true })),
  )
  .concat(
    [
      ["SELECT count(*) AS n FROM genre", "SELECT count(1) AS n FROM genre"],
      [
        "SELECT name FROM genre WHERE genre_id > 20",
        "SELECT name FROM genre WHERE genre_id >= 21",
      ],
      [
        "SELECT count(*) AS n FROM invoice WHERE total > 20",
        "SELECT count(*) AS n FROM invoice WHERE total >= 20.01",
      ],
    ].map((x): Pair => ({ db: "chinook", reference: x[0]!, candidate: x[1]!, differ: false })),
  );

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ce-pg-bench-"));
const files = {
  shop: path.join(dir, "shop.sql"),
  chinook: path.join(ROOT, "examples/chinook/Chinook_PostgreSql.sql"),
};
fs.writeFileSync(files.shop, SHOP);
const chinookBefore = fs.statSync(files.chinook).mtimeMs;
try {
  let t = performance.now();
  const anchor = new PGlite();
  await anchor.waitReady;
  const pgliteStart = (performance.now() - t) / 1000;
  const replay = anchor;
  t = performance.now();
  spawnSync(process.execPath, ["run", "-A", "--quiet", path.join(ROOT, "cli.ts"), "--version"]);
  const processStart = (performance.now() - t) / 1000;
  console.log(
    `anchors: PGlite start ${pgliteStart.toFixed(3)} s, process start ${processStart.toFixed(3)} s`,
  );

  await keepPgEngines(true);
  const times: Record<string, number[]> = { shop: [], chinook: [] };
  let caught = 0;
  let nearMisses = 0;
  let falseClaims = 0;
  let notReplayed = 0;
  // The first search of each database loads it (the harness does so once per run).
  for (const db of ["shop", "chinook"] as const) {
    t = performance.now();
    await findCounterexample({
      db: `pglite:${files[db]}`,
      reference: "SELECT 1",
      candidate: "SELECT 1",
      budget: 1,
    });
    console.log(`${db}: loaded, sandbox started: ${((performance.now() - t) / 1000).toFixed(3)} s`);
  }
  for (const p of PAIRS) {
    t = performance.now();
    const r = await findCounterexample({
      db: `pglite:${files[p.db]}`,
      reference: p.reference,
      candidate: p.candidate,
      ordered: p.ordered ?? false,
    });
    times[p.db]!.push((performance.now() - t) / 1000);
    if (p.differ) nearMisses++;
    if (r.found && p.differ) caught++;
    if (r.found && !p.differ) falseClaims++;
    if (r.found) {
      await replay.exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
      await replay.exec(r.databaseSql!);
      const q = async (sql: string) => {
        const x = await replay.query<unknown[]>(sql, [], {
          rowMode: "array",
          parsers: pgliteParsers(),
        });
        return { columns: x.fields.map((f) => f.name), rows: x.rows };
      };
      if (
        compareRows(await q(p.candidate), await q(p.reference), { ordered: p.ordered ?? false })
      ) {
        notReplayed++;
      }
    }
  }
  await keepPgEngines(false);
  const all = [...times["shop"]!, ...times["chinook"]!];
  console.log(
    `near misses caught ${caught}/${nearMisses}, claims on equivalents ${falseClaims}, claims not replayed ${notReplayed}`,
  );
  console.log("| database | pairs | median s | p95 s | max s |");
  console.log("| --- | --- | --- | --- | --- |");
  for (
    const [name, list] of [["shop", times["shop"]!], ["chinook", times["chinook"]!], [
      "all",
      all,
    ]] as const
  ) {
    console.log(
      `| ${name} | ${list.length} | ${percentile(list, 50).toFixed(3)} | ${
        percentile(list, 95).toFixed(3)
      } | ${Math.max(...list).toFixed(3)} |`,
    );
  }
  if (cli) {
    const cliTimes: number[] = [];
    let peak = 0;
    for (const p of PAIRS.filter((x) => x.db === "shop")) {
      t = performance.now();
      const r = spawnSync("/usr/bin/time", [
        "-f",
        "__RSS__ %M",
        process.execPath,
        "run",
        "-A",
        "--quiet",
        path.join(ROOT, "cli.ts"),
        "counterexample",
        "--db",
        `pglite:${files.shop}`,
        "--reference",
        p.reference,
        "--candidate",
        p.candidate,
        ...(p.ordered ? ["--ordered"] : []),
        "--json",
        "-",
      ], { encoding: "utf8" });
      cliTimes.push((performance.now() - t) / 1000);
      peak = Math.max(peak, Number(/__RSS__ (\d+)/.exec(r.stderr)?.[1] ?? 0));
    }
    console.log(
      `CLI, one process per shop pair: median ${percentile(cliTimes, 50).toFixed(3)} s, p95 ${
        percentile(cliTimes, 95).toFixed(3)
      } s, peak RSS ${(peak / 1024).toFixed(0)} MB`,
    );
  }
  await anchor.close();
  console.log(`Chinook script unchanged: ${fs.statSync(files.chinook).mtimeMs === chinookBefore}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

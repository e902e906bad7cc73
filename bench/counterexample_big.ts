/**
 * The counterexample search on a given database of 10,000,000 orders: what
 * a search costs when the given file is large. The shop of
 * bench/_heldout_dbs.ts with 10,000,000 rows in `orders` (and 100,000
 * customers), made once in bench/data/heldout/ by SQLite itself; a few near
 * misses of each kind run through the binary, beside the same pairs on the
 * 300-order shop, and with `--base-bin FILE` beside the code before a
 * change. A search that read or copied the whole file per candidate would
 * take minutes here; its time should be the small file's plus the one-off
 * reads (the sample, and one count of each table for "how it differs").
 *
 *     deno task build
 *     deno run -A bench/counterexample_big.ts [--bin dist/dbagenteval] [--base-bin FILE]
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { cliSearch } from "./_counterexample_cli.ts";
import { heldoutDb, SHOP_SCHEMA } from "./_heldout_dbs.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
const bin = path.resolve(option("--bin") ?? process.env["DBAGENTEVAL_BIN"] ?? "dist/dbagenteval");
const baseBin = option("--base-bin");
const ROWS = 10_000_000;

function bigShop(dir: string): string {
  const file = path.join(dir, "heldout_shop_10m_v1.db");
  if (fs.existsSync(file)) return file;
  const tmp = `${file}.${process.pid}.tmp`;
  const db = new DatabaseSync(tmp);
  try {
    db.exec(SHOP_SCHEMA);
    db.exec(`
      PRAGMA journal_mode = OFF;
      PRAGMA synchronous = OFF;
      BEGIN;
      INSERT INTO store VALUES (1, 'Main', 'north'), (2, 'Outlet', 'south'), (3, 'Online', 'web');
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
      INSERT INTO customer SELECT i, 1, 'Customer ' || i, 'u' || i || '@shop.test', i % 9 = 0 FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
      INSERT INTO product SELECT i, 1, printf('P-%03d', i), 'Product ' || i,
        (i * 37 % 120) + 0.25 * (1 + i % 3), (i * 13) % 150 + 1, 'toys' FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
      INSERT INTO orders SELECT i, 1, 1 + (i * 7919) % 100000,
        CASE i % 3 WHEN 0 THEN 'paid' WHEN 1 THEN 'shipped' ELSE 'delivered' END,
        date('2024-01-01', '+' || (i % 600) || ' days') || printf(' %02d:%02d:00', 8 + i % 12, 10 + i % 50),
        CASE WHEN i % 3 = 0 THEN NULL ELSE date('2024-01-01', '+' || (i % 600) || ' days') || ' 23:00:00' END
        FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
      INSERT INTO order_item SELECT i, 1 + i % 40, 1 + i % 4, (i * 37 % 120) + 0.25 FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
      INSERT INTO refund SELECT i, i * 7, 2.5 + i % 40, 'late' FROM n;
      COMMIT;
    `);
  } finally {
    db.close();
  }
  fs.renameSync(tmp, file);
  return file;
}

const PAIRS: [string, string, string][] = [
  [
    "missing tenant filter",
    "SELECT count(*) AS n FROM orders WHERE store_id = 1 AND status = 'paid'",
    "SELECT count(*) AS n FROM orders WHERE status = 'paid'",
  ],
  [
    "> for >= among filters",
    "SELECT count(*) AS n FROM orders o JOIN order_item i ON i.order_id = o.order_id WHERE o.status = 'shipped' AND i.unit_price >= 50",
    "SELECT count(*) AS n FROM orders o JOIN order_item i ON i.order_id = o.order_id WHERE o.status = 'shipped' AND i.unit_price > 50",
  ],
  [
    "NOT IN for NOT EXISTS",
    "SELECT count(*) AS n FROM orders o WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM refund r WHERE r.order_id = o.order_id)",
    "SELECT count(*) AS n FROM orders WHERE status = 'delivered' AND order_id NOT IN (SELECT order_id FROM refund)",
  ],
  [
    "UNION ALL for UNION",
    "SELECT customer_id, created_at FROM orders WHERE order_id < 100 UNION SELECT customer_id, created_at FROM orders WHERE order_id > 9999900",
    "SELECT customer_id, created_at FROM orders WHERE order_id < 100 UNION ALL SELECT customer_id, created_at FROM orders WHERE order_id > 9999900",
  ],
  [
    "equivalent (no claim expected)",
    "SELECT count(*) AS n FROM orders WHERE store_id = 1 AND status = 'paid'",
    "SELECT count(*) AS n FROM orders o WHERE o.status = 'paid' AND o.store_id = 1",
  ],
];

const dir = path.join(ROOT, "bench/data/heldout");
fs.mkdirSync(dir, { recursive: true });
const t0 = performance.now();
const big = bigShop(dir);
console.log(
  `${big}: ${(fs.statSync(big).size / 1e6).toFixed(0)} MB (${
    ((performance.now() - t0) / 1000).toFixed(0)
  } s to make or find)`,
);
const small = heldoutDb(dir, "shop");
const before = fs.statSync(big);
const load0 = os.loadavg()[0]!;
console.log(
  "| pair | binary | database | found | tried | search s | wall s | peak RSS MB |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const [name, reference, candidate] of PAIRS) {
  for (const [label, binary] of [["after", bin], ...(baseBin ? [["before", baseBin]] : [])]) {
    for (const [dbName, file] of [["10M orders", big], ["300 orders", small]]) {
      const r = cliSearch([binary!], file!, { reference, candidate });
      console.log(
        `| ${name} | ${label} | ${dbName} | ${r.error ?? r.found} | ${r.tried} | ${
          r.searchSeconds?.toFixed(2) ?? ""
        } | ${r.seconds.toFixed(2)} | ${r.rssMb.toFixed(0)} |`,
      );
    }
  }
}
const after = fs.statSync(big);
console.log(
  `\nthe 10M file unchanged (size and mtime): ${
    after.size === before.size && after.mtimeMs === before.mtimeMs
  }; load average ${load0.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`,
);

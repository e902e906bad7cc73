/**
 * Random damage: seeded files (a WITHOUT ROWID table with a TEXT key, a
 * rowid table keyed by a TEXT, REAL or BLOB, a rowid table with an index
 * and spilled values; NOCASE and RTRIM keys; UTF-8 and UTF-16; page sizes
 * 512 to 4096; auto_vacuum on and off), each with one to three bytes of one
 * random page changed, then every command of tests/damage_check.ts judged
 * as the damaged-file suite judges it: "damaged", or exactly what SQLite
 * reads. Where bench/damaged_sweep.ts breaks one invariant at a time, this
 * finds the damage nobody listed (it found a renamed index row diffed as
 * sound: lib/diff/_schema_rows_check.ts).
 *
 * Prints a letter per command every 20 files (`r` refused, `=` as SQLite
 * reads, `X` neither) and each wrong answer, whose files it keeps in
 * /tmp (flip_dN.db damaged, flip_bN.db the other side).
 *
 * Usage: deno run -A bench/damaged_flips.ts [FILES] [SEED]
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { sqliteReading } from "../tests/damage.ts";
import { COMMANDS, judge } from "../tests/damage_check.ts";
import { mulberry32 } from "../lib/counterexample/random.ts";

const FILES = Number(process.argv[2] ?? 100);
const SEED = Number(process.argv[3] ?? 1);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-flips-"));
const run = (file: string, sql: string) => {
  const db = new DatabaseSync(file);
  db.exec(sql);
  db.close();
};
const tally = { refused: 0, same: 0, wrong: 0 };

try {
  for (let n = 0; n < FILES; n++) {
    const r = mulberry32(SEED * 1000003 + n);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const pageSize = pick([512, 1024, 4096]);
    const collation = pick(["", " COLLATE NOCASE", " COLLATE RTRIM"]);
    const encoding = r() < 0.3 ? `PRAGMA encoding = '${pick(["UTF-16le", "UTF-16be"])}';` : "";
    const vacuum = r() < 0.3 ? "PRAGMA auto_vacuum = 1;" : "";
    const rows = 100 + Math.floor(r() * 600);
    const a = path.join(dir, `a${n}.db`);
    const b = path.join(dir, `b${n}.db`);
    run(
      a,
      `PRAGMA page_size = ${pageSize}; ${encoding} ${vacuum} BEGIN;
      CREATE TABLE w(k TEXT${collation} PRIMARY KEY, a, b) WITHOUT ROWID;
      CREATE TABLE p(k${pick(["", " BLOB", " REAL", " TEXT"])} PRIMARY KEY, a);
      CREATE TABLE t(id INTEGER PRIMARY KEY, a, b); CREATE INDEX ta ON t(a${collation});
      WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows})
      INSERT INTO w SELECT printf('k%05d', i) ||
        CASE WHEN i % 9 = 0 THEN printf('%.900c', 'x') ELSE '' END, i, char(0x100 + i) FROM s;
      WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 300)
      INSERT INTO p SELECT CASE i % 3 WHEN 0 THEN 'k' || i WHEN 1 THEN i + 0.5
        ELSE CAST('b' || i AS BLOB) END, i FROM s;
      WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 400)
      INSERT INTO t SELECT i, 'v' || (i % 37),
        CASE WHEN i % 50 = 0 THEN zeroblob(3000) ELSE i END FROM s;
      COMMIT;`,
    );
    fs.copyFileSync(a, b);
    run(
      b,
      `UPDATE w SET a = -a WHERE a % 13 = 0; DELETE FROM p WHERE a % 17 = 0;
      UPDATE t SET a = 'z' WHERE id % 19 = 0; INSERT INTO w VALUES ('new', 1, 2)`,
    );
    // One to three bytes of one page, changed (page 1's header left whole).
    const bytes = fs.readFileSync(a);
    const page = 1 + Math.floor(r() * (bytes.length / pageSize));
    const skip = page === 1 ? 100 : 0;
    for (let f = 0; f < 1 + Math.floor(r() * 3); f++) {
      const at = (page - 1) * pageSize + skip + Math.floor(r() * (pageSize - skip));
      bytes[at] = r() < 0.5 ? bytes[at]! ^ (1 << Math.floor(r() * 8)) : Math.floor(r() * 256);
    }
    // The damaged file and SQLite's reading of it share a name, in two folders.
    fs.mkdirSync(path.join(dir, `d${n}`));
    fs.mkdirSync(path.join(dir, `c${n}`));
    const damaged = path.join(dir, `d${n}`, "x.db");
    fs.writeFileSync(damaged, bytes);
    const scratch = path.join(dir, `s${n}.db`);
    fs.copyFileSync(damaged, scratch);
    const reading = sqliteReading(scratch, path.join(dir, `c${n}`, "x.db"));
    const letters: string[] = [];
    for (const command of COMMANDS) {
      const v = await judge(command, damaged, b, reading);
      tally[v.how]++;
      letters.push(v.how === "refused" ? "r" : v.how === "same" ? "=" : "X");
      if (v.how === "wrong") {
        console.log(`file ${n} (page ${page}) ${command.name}: ${v.detail.slice(0, 1200)}`);
        fs.copyFileSync(damaged, `/tmp/flip_d${n}.db`);
        fs.copyFileSync(b, `/tmp/flip_b${n}.db`);
      }
    }
    if (n % 20 === 0) console.log(`${n} ${letters.join("")}`);
  }
  console.log(
    `${FILES} files, ${COMMANDS.length} commands each: ${tally.refused} refused as damaged, ` +
      `${tally.same} as SQLite reads, ${tally.wrong} neither`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exitCode = tally.wrong > 0 ? 1 : 0;

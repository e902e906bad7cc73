/**
 * The damaged-file sweep: every kind of damage of tests/damage.ts on every
 * variant (page sizes 512, 1024, 4096, 16384, 65536; auto_vacuum none and
 * full), and SQLite's own damaged test databases (every dump of the test
 * suite in SQLite's source tree, tests/sqlite_dumps.ts: set
 * DBAGENTEVAL_SQLITE_SOURCE or run .ci/sqlite_source), each through every
 * command of tests/damage_check.ts. Prints, per file, a letter per
 * command: `r` refused as damaged, `=` what SQLite reads, `X` neither (with
 * what it gave). The test suite (tests/damaged_files_test.ts) runs a
 * quicker cut of the same.
 *
 * Usage: deno run -A bench/damaged_sweep.ts [--only WORD] [--dumps-only] [--crafted-only]
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import {
  changedCopy,
  DAMAGES,
  Model,
  sqliteReading,
  validFile,
  type Variant,
  writeFile,
} from "../tests/damage.ts";
import { COMMANDS, judge } from "../tests/damage_check.ts";
import { dumpFiles, dumpsOf } from "../tests/sqlite_dumps.ts";
import { SQLITE_SOURCE, SYSTEM_TOOLS } from "../tests/system_packages.ts";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const only = arg("--only");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-damage-"));
const letters = { refused: "r", same: "=", wrong: "X" } as const;
let wrong = 0;
let files = 0;

console.log(`commands: ${COMMANDS.map((c, i) => `${i + 1} ${c.name}`).join(", ")}`);
try {
  if (!process.argv.includes("--dumps-only")) {
    const variants: Variant[] = [512, 1024, 4096, 16384, 65536].flatMap((pageSize) =>
      (["none", "full"] as const).map((autoVacuum) => ({ pageSize, autoVacuum }))
    );
    for (const v of variants) {
      const tag = `${v.pageSize}-${v.autoVacuum}`;
      const intact = validFile(path.join(dir, `${tag}.db`), v);
      const other = changedCopy(intact, path.join(dir, `${tag}-other.db`));
      for (const [k, damage] of DAMAGES.entries()) {
        if (only !== undefined && !damage.name.includes(only)) continue;
        const m = new Model(intact);
        if (!damage.apply(m)) continue;
        const name = `${tag}-${k}.db`;
        const d = writeFile(path.join(dir, "damaged"), name, m.bytes);
        fs.mkdirSync(path.join(dir, "read"), { recursive: true });
        const r = sqliteReading(d, path.join(dir, "read", name));
        files++;
        let line = "";
        const notes: string[] = [];
        for (const c of COMMANDS) {
          const verdict = await judge(c, d, other, r);
          line += letters[verdict.how];
          if (verdict.how === "wrong") notes.push(`  ${c.name}: ${verdict.detail}`);
        }
        wrong += notes.length > 0 ? 1 : 0;
        const sqlite = r.copy === null
          ? "SQLite cannot open it"
          : r.unreadable.size > 0
          ? `SQLite cannot read ${[...r.unreadable].join(", ")}`
          : "SQLite reads it";
        console.log(`${line}  ${tag.padEnd(11)} ${damage.name} (${sqlite})`);
        for (const n of notes) console.log(n.split("\n").slice(0, 12).join("\n"));
      }
    }
  }
  if (!process.argv.includes("--crafted-only")) {
    if (!SYSTEM_TOOLS.sqliteSource.found()) {
      throw new Error(
        `no SQLite source tree in ${SQLITE_SOURCE}: ${SYSTEM_TOOLS.sqliteSource.install}`,
      );
    }
    for (const f of dumpFiles(SQLITE_SOURCE)) {
      for (const [k, dump] of dumpsOf(SQLITE_SOURCE, f).entries()) {
        if (only !== undefined && !`${f} ${dump.name}`.includes(only)) continue;
        const name = `${path.basename(f, ".test")}-${k + 1}.db`;
        const d = writeFile(path.join(dir, "damaged"), name, dump.bytes);
        fs.mkdirSync(path.join(dir, "read"), { recursive: true });
        const r = sqliteReading(d, path.join(dir, "read", name));
        // The other side is a copy of SQLite's reading: a diff of the two must be empty, or "damaged".
        fs.mkdirSync(path.join(dir, "other"), { recursive: true });
        const other = path.join(dir, "other", name);
        fs.copyFileSync(r.copy ?? d, other);
        files++;
        let line = "";
        const notes: string[] = [];
        for (const c of COMMANDS) {
          if (c.reads !== null) continue;
          const verdict = await judge(c, d, other, r);
          line += letters[verdict.how];
          if (verdict.how === "wrong") notes.push(`  ${c.name}: ${verdict.detail}`);
        }
        wrong += notes.length > 0 ? 1 : 0;
        const sqlite = r.copy === null
          ? "SQLite cannot open it"
          : r.unreadable.size > 0
          ? `SQLite cannot read ${[...r.unreadable].join(", ")}`
          : "SQLite reads it";
        console.log(`${line}  ${name} (${sqlite})`);
        for (const n of notes) console.log(n.split("\n").slice(0, 12).join("\n"));
      }
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`${files} damaged files, ${wrong} with a wrong answer`);
process.exit(wrong > 0 ? 1 : 0);

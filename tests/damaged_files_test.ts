/**
 * The damaged-file suite: databases damaged one invariant at a time (made
 * here from valid files, tests/damage.ts: leaves swapped, a duplicate
 * rowid, a reserved serial type, an interior page listing a child twice, an
 * overflow chain shared or looping, a cell count that does not fit, and
 * more), across page sizes 512, 4096 and 65536 with auto_vacuum off and on,
 * and SQLite's own damaged test databases (every dump of its test suite,
 * read from a copy of SQLite's source tree: tests/sqlite_dumps.ts).
 * For each, every command (tests/damage_check.ts: db diff both ways and
 * with itself, --summary, --table, --sql, --select, db info) either says
 * the file is damaged or gives exactly what it gives on what SQLite reads
 * from the file, and never an answer when SQLite cannot read it; and the
 * CLI says so in one line with exit code 2, without a hang.
 *
 * Each kind of damage runs on one variant here, the variants in turn;
 * bench/damaged_sweep.ts runs every kind on every variant.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { needs, SQLITE_SOURCE, SYSTEM_TOOLS } from "./system_packages.ts";
import { dumpFiles, dumpsOf } from "./sqlite_dumps.ts";
import {
  changedCopy,
  DAMAGES,
  Model,
  sqliteReading,
  validFile,
  type Variant,
  writeFile,
} from "./damage.ts";
import { COMMANDS, judge } from "./damage_check.ts";

const dir = tempDir("dbagenteval-damaged-");
after(() => dir.cleanup());

const VARIANTS: Variant[] = [
  { pageSize: 512, autoVacuum: "none" },
  { pageSize: 4096, autoVacuum: "full" },
  { pageSize: 65536, autoVacuum: "none" },
  { pageSize: 512, autoVacuum: "full" },
  { pageSize: 4096, autoVacuum: "none" },
  { pageSize: 65536, autoVacuum: "full" },
];

/** The valid file of each variant and its changed copy, made once. */
const made = new Map<Variant, { intact: string; other: string }>();
function files(v: Variant): { intact: string; other: string } {
  let f = made.get(v);
  if (f === undefined) {
    const tag = `${v.pageSize}-${v.autoVacuum}`;
    const intact = validFile(dir.file(`${tag}.db`), v);
    f = { intact, other: changedCopy(intact, dir.file(`${tag}-other.db`)) };
    made.set(v, f);
  }
  return f;
}

// The library's commands are the same code under the binary: its pass runs the CLI cases only.
const inProcess = process.env["DBAGENTEVAL_BIN"] === undefined;

describe("a file damaged one invariant at a time", {
  skip: !inProcess ? "the binary's pass runs the CLI cases" : needs("sqlite3"),
}, () => {
  DAMAGES.forEach((damage, k) => {
    // The variant this kind of damage can be made in, from its turn on.
    it(`is refused, or read as SQLite reads it, by every command: ${damage.name}`, async () => {
      for (let turn = 0; turn < VARIANTS.length; turn++) {
        const v = VARIANTS[(k + turn) % VARIANTS.length]!;
        const { intact, other } = files(v);
        const m = new Model(intact);
        if (!damage.apply(m)) continue;
        const name = `${v.pageSize}-${v.autoVacuum}-${k}.db`;
        const damaged = writeFile(dir.file("damaged"), name, m.bytes);
        fs.mkdirSync(dir.file("read"), { recursive: true });
        const reading = sqliteReading(damaged, dir.file(`read/${name}`));
        for (const command of COMMANDS) {
          const verdict = await judge(command, damaged, other, reading);
          assert.notEqual(verdict.how, "wrong", `${command.name} on ${name}: ${verdict.detail}`);
        }
        return;
      }
      assert.fail("no variant has what this damage breaks");
    });
  });
});

describe("SQLite's own damaged test databases", {
  skip: !inProcess ? "the binary's pass runs the CLI cases" : needs("sqlite3", "sqliteSource"),
}, () => {
  // Read from SQLite's source tree at test time (tests/sqlite_dumps.ts).
  const files = SYSTEM_TOOLS.sqliteSource.found() ? dumpFiles(SQLITE_SOURCE) : [];
  for (const f of files) {
    it(`are refused, or read as SQLite reads them, by every command: ${f}`, async () => {
      const dumps = dumpsOf(SQLITE_SOURCE, f);
      assert.ok(dumps.length > 0);
      const tag = path.basename(f, ".test");
      for (const [k, dump] of dumps.entries()) {
        const name = `${tag}-${k + 1}.db`;
        const damaged = writeFile(dir.file("dumps"), name, dump.bytes);
        fs.mkdirSync(dir.file("dumps-read"), { recursive: true });
        const reading = sqliteReading(damaged, dir.file(`dumps-read/${name}`));
        // The other side: a copy of SQLite's reading, so a diff must be empty or refused.
        fs.mkdirSync(dir.file("dumps-other"), { recursive: true });
        const other = dir.file(`dumps-other/${name}`);
        fs.copyFileSync(reading.copy ?? damaged, other);
        for (const command of COMMANDS) {
          if (command.reads !== null) continue;
          const verdict = await judge(command, damaged, other, reading);
          assert.notEqual(
            verdict.how,
            "wrong",
            `${command.name} on ${name} (${dump.name}): ${verdict.detail}`,
          );
        }
      }
    });
  }
});

describe("the CLI on a damaged file", () => {
  const v: Variant = { pageSize: 4096, autoVacuum: "none" };
  // damage, command (FILE: the damaged file, OTHER: a good one)
  const cases: [string, string[]][] = [
    ["two leaf pages of t swapped", ["db", "diff", "OTHER", "FILE"]],
    ["a reserved serial type (10) in place of a NULL", [
      "db",
      "diff",
      "OTHER",
      "FILE",
      "--summary",
    ]],
    ["an overflow chain that loops", ["db", "diff", "FILE", "FILE"]],
    ["an interior page that lists the same child twice", ["db", "info", "FILE"]],
    ["a duplicate rowid in a leaf", ["db", "diff", "OTHER", "FILE", "--sql", "-"]],
    ["a leaf's cell count that does not fit the page", [
      "db",
      "diff",
      "OTHER",
      "FILE",
      "--select",
      '{"rows": {"added": "v"}}',
    ]],
  ];
  for (const [name, args] of cases) {
    it(`says "${name}" is damaged, in one line, exit 2: ${args.slice(0, 2).join(" ")} ${args.slice(4).join(" ")}`, () => {
      const { intact, other } = files(v);
      const m = new Model(intact);
      assert.ok(DAMAGES.find((d) => d.name === name)!.apply(m));
      const file = writeFile(dir.file("cli"), "bad.db", m.bytes);
      // runCli gives up after two minutes: a hang fails the test.
      const r = runCli(args.map((a) => (a === "FILE" ? file : a === "OTHER" ? other : a)));
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /^(error: )?Cannot read ".*bad\.db": the file is damaged \(page \d+: .+\); restore it from a good copy\n$/,
      );
    });
  }
});

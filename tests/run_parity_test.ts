/**
 * `dbagenteval run ...` and the library's `runEval(file, options)` with the
 * same options write the same run file (timestamps and durations aside):
 * one table of invocations, each run both ways on Spider's own databases.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runCli } from "./cli.ts";
import { tempDir } from "./fixtures.ts";
import { runEval, type RunOptions } from "../mod.ts";

const dir = tempDir("dbagenteval-parity-");
after(() => dir.cleanup());
const SPIDER_DB = path.resolve(import.meta.dirname!, "data/spider/database");

function write(name: string, text: string): string {
  const file = dir.file(name);
  fs.writeFileSync(file, text);
  return file;
}

const gold = write(
  "gold.sql",
  [
    "SELECT DISTINCT country FROM singer\tconcert_singer",
    "SELECT name FROM singer WHERE age > 40\tconcert_singer",
    "SELECT count(*) FROM singer\tconcert_singer",
    "SELECT count(*) FROM stadium\tconcert_singer",
  ].join("\n") + "\n",
);
const pred = write(
  "pred.sql",
  [
    "SELECT country FROM singer",
    "SELECT name, age FROM singer WHERE age > 40",
    "SELECT count(*) FROM singer",
    "SELECT count(*) FROM singer",
  ].join("\n") + "\n",
);

/** A run file without what differs between two runs of it: times and durations. */
function comparable(file: string): unknown {
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip) : v !== null && typeof v === "object"
      ? Object.fromEntries(
        Object.entries(v).filter(([k]) => k !== "created_at" && k !== "duration_ms")
          .map(([k, x]) => [k, strip(x)]),
      )
      : v;
  return strip(JSON.parse(fs.readFileSync(file, "utf8")));
}

/** The CLI's flags for the options object. */
function flags(options: RunOptions): string[] {
  return Object.entries(options).flatMap(([key, value]) => {
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return value === true ? [flag] : [flag, String(value)];
  });
}

const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

/** Runs the options both ways, each writing its own files; gives the two run files. */
async function bothWays(
  name: string,
  options: RunOptions,
  reports: readonly ("md" | "junit" | "html")[] = [],
): Promise<{ cli: string; lib: string; code: [number, number] }> {
  const out = (way: string, ext: string) => dir.file(`${name}.${way}.${ext}`);
  const extra = (way: string): RunOptions =>
    Object.fromEntries([
      ...(options.resume === undefined ? [["json", out(way, "json")]] : []),
      ...reports.map((r) => [r, out(way, r === "junit" ? "xml" : r)]),
    ]);
  const r = runCli(["run", gold, ...flags({ ...options, ...extra("cli") })]);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  const outcome = await runEval(gold, { ...options, ...extra("lib") }, quiet);
  for (const report of reports) {
    const ext = report === "junit" ? "xml" : report;
    assert.ok(fs.statSync(out("cli", ext)).size > 0 && fs.statSync(out("lib", ext)).size > 0);
  }
  return {
    cli: options.resume === undefined ? out("cli", "json") : options.resume,
    lib: options.resume === undefined ? out("lib", "json") : `${options.resume}.lib`,
    code: [r.code, outcome.exitCode],
  };
}

const TABLE: [string, RunOptions, readonly ("md" | "junit" | "html")[]][] = [
  [
    "predictions over --db-dir with --score spider,bird",
    { predictions: pred, dbDir: SPIDER_DB, score: "spider,bird" },
    [],
  ],
  ["--repeat 3", { predictions: pred, dbDir: SPIDER_DB, repeat: 3, minPassRate: 0.5 }, []],
  ["--counterexamples", { predictions: pred, dbDir: SPIDER_DB, counterexamples: true }, []],
  ["with every report (--md, --junit, --html)", { predictions: pred, dbDir: SPIDER_DB }, [
    "md",
    "junit",
    "html",
  ]],
];

describe("run and runEval() give the same run file", () => {
  for (const [name, options, reports] of TABLE) {
    it(`runEval() writes the run file of run ${name}`, async () => {
      const { cli, lib, code } = await bothWays(name.replace(/\W+/g, "_"), options, reports);
      assert.equal(code[0], code[1]);
      assert.deepEqual(comparable(lib), comparable(cli));
    });
  }

  it("runEval() finishes an interrupted run with resume as run --resume does", async () => {
    const whole = dir.file("whole.json");
    await runEval(gold, { predictions: pred, dbDir: SPIDER_DB, json: whole }, quiet);
    // What a run stopped after its first case leaves: the header line and one case line.
    const cut = fs.readFileSync(whole, "utf8").split("\n").slice(0, 2).join("\n") + "\n";
    const cliFile = write("resumed.json", cut);
    const libFile = write("resumed.json.lib", cut);
    const r = runCli([
      "run",
      gold,
      "--predictions",
      pred,
      "--db-dir",
      SPIDER_DB,
      "--resume",
      cliFile,
    ]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    await runEval(gold, { predictions: pred, dbDir: SPIDER_DB, resume: libFile }, quiet);
    assert.deepEqual(comparable(libFile), comparable(cliFile));
    const cases = (comparable(libFile) as { cases: unknown[] }).cases;
    assert.equal(cases.length, 4);
  });

  it("runEval() with shard writes the shards of run --shard, and merge makes one run of each", async () => {
    const merged: string[] = [];
    for (const way of ["cli", "lib"]) {
      const files: string[] = [];
      for (const shard of ["1/2", "2/2"]) {
        const file = dir.file(`shard-${way}-${shard.replace("/", "of")}.json`);
        const options = { predictions: pred, dbDir: SPIDER_DB, shard, json: file };
        if (way === "cli") runCli(["run", gold, ...flags(options)]);
        else await runEval(gold, options, quiet);
        files.push(file);
      }
      const out = dir.file(`merged-${way}.json`);
      const r = runCli(["merge", ...files, "--json", out]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      merged.push(out);
    }
    for (const shard of ["1of2", "2of2"]) {
      assert.deepEqual(
        comparable(dir.file(`shard-lib-${shard}.json`)),
        comparable(dir.file(`shard-cli-${shard}.json`)),
      );
    }
    const [cli, lib] = merged.map((f) => comparable(f) as { cases: { id: string }[] });
    assert.equal(cli!.cases.length, 4);
    // The merged runs name their shard files, which differ by name only.
    assert.deepEqual(lib!.cases, cli!.cases);
  });
});

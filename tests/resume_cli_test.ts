/**
 * A long run survives: the run file is written as the cases finish, a run
 * killed (SIGKILL) or interrupted (SIGINT, Ctrl-C) mid-way leaves a run file
 * that `report` reads, and `run --resume` finishes it without asking the
 * agent again what it already answered; the result equals an uninterrupted
 * run.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import process from "node:process";
import { needs } from "./system_packages.ts";
import { cliCommand, ROOT, runCli } from "./cli.ts";
import { tempDir } from "./fixtures.ts";
import { readRunFile, type RunFile } from "../lib/eval/run_file.ts";

const dir = tempDir("dbagenteval-resume-");
const N = 30;
const STOP_AT = 12;
const cases = dir.file("cases.jsonl");
const agent = dir.file("agent.py");
const asked = dir.file("asked.txt");

before(() => {
  fs.writeFileSync(
    cases,
    Array.from({ length: N }, (_, i) =>
      JSON.stringify({
        id: `c${i}`,
        question: `What is ${i} + 1?`,
        expect: { rows: [{ n: i + 1 }] },
      })).join("\n") + "\n",
  );
  // Answers i + 1, wrong on every seventh case; with STOP_AT set, it stops
  // answering at that case until its stdin closes (the harness is gone).
  fs.writeFileSync(
    agent,
    `import json, os, sys
stop = os.environ.get("STOP_AT")
for line in sys.stdin:
    r = json.loads(line)
    i = int(r["id"][1:])
    with open(os.environ["ASKED"], "a") as f:
        f.write(r["id"] + "\\n")
    if stop is not None and i == int(stop):
        sys.stdin.read()
        sys.exit(0)
    n = i + 1 if i % 7 else i
    sys.stdout.write(json.dumps({"id": r["id"], "sql": "SELECT %d AS n" % n, "rows": [{"n": n}]}) + "\\n")
    sys.stdout.flush()
`,
  );
});
after(() => dir.cleanup());

function comparable(run: RunFile): unknown {
  return {
    totals: run.totals,
    failures_by_stage: run.failures_by_stage,
    cases: run.cases.map(({ duration_ms: _d, ...rest }) => rest),
  };
}

/** Starts a run that stops answering at STOP_AT; resolves once the cases before it are on disk. */
async function startStuckRun(json: string): Promise<ReturnType<typeof spawn>> {
  const [cmd, ...pre] = cliCommand();
  const child = spawn(
    cmd!,
    [...pre, "run", cases, "--agent-cmd", `python3 ${agent}`, "--concurrency", "1", "--json", json],
    {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", STOP_AT: String(STOP_AT), ASKED: asked },
      stdio: "ignore",
    },
  );
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(json) ? fs.readFileSync(json, "utf8").split("\n").length - 1 : 0;
    if (lines >= STOP_AT + 1) return child; // the header line and the cases before STOP_AT
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("the run did not reach the case it stops at");
}

async function stopped(child: ReturnType<typeof spawn>, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

describe("run --resume", { skip: needs("python3") }, () => {
  let whole: RunFile;
  before(async () => {
    const json = dir.file("whole.json");
    const r = runCli(["run", cases, "--agent-cmd", `python3 ${agent}`, "--json", json], {
      env: { ASKED: dir.file("asked_whole.txt") },
    });
    assert.equal(r.code, 1, r.stderr);
    whole = await readRunFile(json);
    assert.equal(whole.cases.length, N);
  });

  for (const signal of ["SIGKILL", "SIGINT"] as const) {
    it(`finishes a run stopped with ${signal} mid-way, asking only what was not answered`, async () => {
      const json = dir.file(`stopped_${signal}.json`);
      fs.rmSync(asked, { force: true });
      await stopped(await startStuckRun(json), signal);

      // The partial run file reads as a run of the cases it has.
      const partial = await readRunFile(json);
      assert.deepEqual(
        partial.cases.map((c) => c.id),
        whole.cases.slice(0, STOP_AT).map((c) => c.id),
      );
      const report = runCli(["report", json, "--md", "-"]);
      assert.equal(report.code, 1, report.stderr); // c0 fails on purpose
      assert.match(report.stdout, new RegExp(`of ${STOP_AT} passed`));

      fs.rmSync(asked, { force: true });
      const r = runCli(["run", cases, "--agent-cmd", `python3 ${agent}`, "--resume", json], {
        env: { ASKED: asked },
      });
      assert.equal(r.code, 1, r.stderr);
      // Only the cases the stopped run had not answered were asked again.
      assert.deepEqual(
        fs.readFileSync(asked, "utf8").trim().split("\n").sort(),
        whole.cases.slice(STOP_AT).map((c) => c.id).sort(),
      );
      assert.deepEqual(comparable(await readRunFile(json)), comparable(whole));
      assert.match(r.stdout, new RegExp(`${whole.totals.passed} of ${N} passed`));
    });
  }

  it("refuses a run file with a case this run does not select", () => {
    const json = dir.file("whole.json");
    const r = runCli([
      "run",
      cases,
      "--agent-cmd",
      `python3 ${agent}`,
      "--case",
      "c1",
      "--resume",
      json,
    ], { env: { ASKED: asked } });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--resume .*whole\.json: it has case "c0", which this run does not select/,
    );
  });
});

/**
 * A run's memory does not grow with its cases file: `run` on a JSON lines
 * file of 5,000 cases, each holding 8 KB of expected rows (40 MB in all),
 * finishes in a child process whose JavaScript heap is capped below what
 * holding every case would take; `validate`, which holds every case, runs
 * out of the same cap. The cap is a V8 flag, so the child is Deno (under
 * Bun too, when `deno` is installed).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { tempDir } from "./fixtures.ts";
import { denoPath, ROOT } from "./cli.ts";
import { needs } from "./system_packages.ts";
import { readRunFile } from "../lib/eval/run_file.ts";

/** The heap cap, MB: the CLI needs about 16 to run cases; the cases take 40 more. */
const HEAP_MB = 48;
const N = 5000;

const dir = tempDir("dbagenteval-run-memory-");
const cases = dir.file("cases.jsonl");
const agent = dir.file("agent.py");
after(() => dir.cleanup());

before(() => {
  // The second acceptable result is never the agent's: it only makes each
  // case big while it is held.
  const pad = "x".repeat(8000);
  const fd = fs.openSync(cases, "w");
  for (let i = 0; i < N; i++) {
    fs.writeSync(
      fd,
      `${
        JSON.stringify({
          id: `c${i}`,
          question: `How many rows are in table ${i}?`,
          expect: { rows: [[{ n: 1 }], [{ n: 2, pad: `${pad}${i}` }]] },
        })
      }\n`,
    );
  }
  fs.closeSync(fd);
  fs.writeFileSync(
    agent,
    `import json, sys
for line in sys.stdin:
    r = json.loads(line)
    sys.stdout.write(json.dumps({"id": r["id"], "sql": "SELECT 1 AS n", "rows": [{"n": 1}]}) + "\\n")
    sys.stdout.flush()
`,
  );
});

function capped(deno: string, args: readonly string[]): { code: number; stderr: string } {
  const r = spawnSync(
    deno,
    [
      "run",
      "--allow-all",
      "--quiet",
      `--v8-flags=--max-old-space-size=${HEAP_MB}`,
      path.join(ROOT, "cli.ts"),
      ...args,
    ],
    {
      encoding: "utf8",
      timeout: 180_000,
      maxBuffer: 1 << 26,
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  return { code: r.status ?? -1, stderr: r.stderr ?? "" };
}

describe(`run under a ${HEAP_MB} MB JavaScript heap`, () => {
  const deno = denoPath();
  const skip = deno === null ? "needs deno" : needs("python3");

  it(`runs ${N} cases of 8 KB each from a JSON lines file`, { skip }, async () => {
    const json = dir.file("run.json");
    const r = capped(deno!, ["run", cases, "--agent-cmd", `python3 ${agent}`, "--json", json]);
    assert.equal(r.code, 0, r.stderr.slice(-500));
    const run = await readRunFile(json);
    assert.deepEqual(run.totals, { total: N, passed: N, failed: 0, errors: 0, skipped: 0 });
    assert.equal(run.cases[N - 1]?.id, `c${N - 1}`);
  });

  it("is a cap that bites: holding every case (validate does) runs out of it", { skip }, () => {
    const r = capped(deno!, ["validate", cases]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /out of memory/i);
  });
});

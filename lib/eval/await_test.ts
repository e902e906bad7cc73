// checkQuestion() and evaluate() return Promises. A TypeScript user who
// forgets `await` must get a compile error, not `undefined` for
// card.summary, and this repository's own code is linted for it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const MOD = fileURLToPath(new URL("../../mod.ts", import.meta.url));
const ROOT = path.dirname(MOD);

/**
 * Writes each file into a fresh folder of the repository and runs deno on
 * them all at once (one type check of the library for both files).
 */
function denoOn(
  args: string[],
  files: Record<string, string>,
): { code: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(ROOT, ".await-test-"));
  try {
    const paths = Object.entries(files).map(([name, code]) => {
      fs.writeFileSync(path.join(dir, name), code);
      return path.join(dir, name);
    });
    const r = spawnSync("deno", [...args, ...paths], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const MISSING_AWAIT = `import { checkQuestion, evaluate, defineCase, Trace } from ${
  JSON.stringify(MOD)
};
const agent = () => ({ rows: [{ n: 2 }] });
const card = checkQuestion(agent, "How many?", "SELECT 2 AS n", { execute: () => [{ n: 2 }] });
console.log(card.summary(), card.verdict);
const trace = Trace.simple("How many?", { rows: [{ n: 2 }] });
const scored = evaluate(trace, defineCase({ question: "How many?", expect: { rows: [{ n: 2 }] } }));
console.log(scored.verdict);
`;

// deno check and deno lint are the tools under test; under Bun the same
// commands would run again as subprocesses, past Bun's 5 s test timeout.
const underDeno = "Deno" in globalThis;

describe("a missing await on the harness's functions", {
  skip: underDeno ? false : "deno check and deno lint run under deno test",
}, () => {
  it("is a compile error for card.summary() and card.verdict, and awaiting fixes it", () => {
    const awaited = MISSING_AWAIT.replaceAll(/= (checkQuestion|evaluate)\(/g, "= await $1(");
    const r = denoOn(["check", "--quiet"], { "missing.ts": MISSING_AWAIT, "awaited.ts": awaited });
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /TS2339.*'summary' does not exist on type 'Promise<Scorecard>'/s);
    assert.match(r.out, /'verdict' does not exist on type 'Promise<Scorecard>'/);
    // Every error is in the file without await: the awaited twin compiles.
    const places = [...r.out.matchAll(/at file:\/\/\S+\/(\w+\.ts):\d+/g)].map((m) => m[1]);
    assert.ok(places.length >= 3, r.out);
    assert.deepEqual([...new Set(places)], ["missing.ts"], r.out);
  });

  it("is reported by the repository's lint rule when the result is stored or dropped", () => {
    const code = `import { runSuite, checkQuestion } from ${JSON.stringify(MOD)};
const card = checkQuestion(() => "2", "q", "SELECT 2", { execute: () => [] });
runSuite([], () => "2");
console.log(card);
`;
    const r = denoOn(["lint"], { "main.ts": code });
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /checkQuestion\(\) returns a Promise; await it/);
    assert.match(r.out, /runSuite\(\) returns a Promise; await it/);
  });
});

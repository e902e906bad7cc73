// `deno task test` is short when everything passes (one summary line, not a
// line per test), shows the failures in full when a test fails, counts
// the tests done on stderr while it runs, and names the package of every
// system tool whose tests skipped.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const TOOL = fileURLToPath(new URL("./test.ts", import.meta.url));
// A folder of its own: the tool writes .test-results/deno.xml under the
// current folder, which must not be the repository's own JUnit file.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-test-task-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, body: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `import { it } from "node:test";\nimport assert from "node:assert/strict";\n${body}`,
  );
  return file;
};
const passing = write(
  "pass_test.ts",
  Array.from({ length: 30 }, (_, i) => `it("case ${i}", () => assert.ok(true));`).join("\n"),
);
const failing = write("fail_test.ts", `it("adds", () => assert.equal(1 + 1, 3));\n`);
const SYSTEM = fileURLToPath(new URL("../tests/system_packages.ts", import.meta.url));
const needsPython = write(
  "python_test.ts",
  `import { needs } from ${JSON.stringify(SYSTEM)};
it("runs python3", { skip: needs("python3") }, () => assert.ok(true));
it("runs python3 again", { skip: needs("python3") }, () => assert.ok(true));
it("needs nothing", () => assert.ok(true));
`,
);
// A PATH without python3 (or anything else): deno itself is run by its path.
const emptyBin = fs.mkdtempSync(path.join(dir, "bin-"));

// The task runs as on a developer's machine: CI's DBAGENTEVAL_REQUIRE_*
// (which turn a skip into a failure) would defeat the skip test below. They
// are set empty rather than left out: the child inherits what is left out.
const developer = { DBAGENTEVAL_REQUIRE_SYSTEM: "", DBAGENTEVAL_REQUIRE_POSTGRES: "" };

function task(file: string | string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["run", "--allow-all", TOOL, ...[file].flat()], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, ...developer, NO_COLOR: "1", ...env },
  });
}

describe("deno task test", { skip: "Deno" in globalThis ? false : "runs deno" }, () => {
  it("prints one summary line when 30 tests pass", () => {
    const r = task(passing);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n").length, 1, r.stdout);
    assert.match(r.stdout, /^ok \| 30 passed \| 0 failed/);
  });

  it("counts the files and tests done on stderr", () => {
    const r = task(passing);
    assert.match(r.stderr, /^deno test: 1 files, 30 tests done, 0 failed \(\d+s\)$/m);
  });

  it("skips a test whose tool is missing, naming its package in one line", () => {
    const r = task(needsPython, { PATH: emptyBin });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n").slice(1), [
      "SKIPPING tests that need python3 (the Python and HTTP example agents): apt-get install python3",
    ]);
    assert.match(r.stdout, /^ok \| 1 passed \| 0 failed \| 2 ignored/);
  });

  it("fails instead with DBAGENTEVAL_REQUIRE_SYSTEM=1, as .ci/run sets", () => {
    const r = task(needsPython, { PATH: emptyBin, DBAGENTEVAL_REQUIRE_SYSTEM: "1" });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /DBAGENTEVAL_REQUIRE_SYSTEM=1 but this test needs python3/);
  });

  it("names the skipped tools when a test fails too, after the failures", () => {
    const r = task([failing, needsPython], { PATH: emptyBin });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /FAILED/);
    assert.equal(
      r.stdout.trimEnd().split("\n").at(-1),
      "SKIPPING tests that need python3 (the Python and HTTP example agents): apt-get install python3",
    );
  });

  it("type-checks the files before it runs them: a type error fails it, with the line", () => {
    const typo = write(
      "typo_test.ts",
      `const n: number = "one";\nit("never runs", () => assert.ok(n));\n`,
    );
    const r = task(typo);
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /TS2322/);
    assert.match(r.stdout, /typo_test\.ts:3/);
    assert.doesNotMatch(r.stdout, /never runs/);
  });

  it("shows the failing test and its assertion when one fails", () => {
    const r = task(failing);
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /adds/);
    assert.match(r.stdout, /FAILED/);
    assert.match(r.stdout, /3/);
  });
});

// `deno task test` is short when everything passes (one summary line, not a
// line per test) and shows the failures in full when a test fails.
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

function task(file: string) {
  return spawnSync("deno", ["run", "--allow-all", TOOL, file], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
}

describe("deno task test", { skip: "Deno" in globalThis ? false : "runs deno" }, () => {
  it("prints one summary line when 30 tests pass", () => {
    const r = task(passing);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n").length, 1, r.stdout);
    assert.match(r.stdout, /^ok \| 30 passed \| 0 failed/);
  });

  it("shows the failing test and its assertion when one fails", () => {
    const r = task(failing);
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /adds/);
    assert.match(r.stdout, /FAILED/);
    assert.match(r.stdout, /3/);
  });
});

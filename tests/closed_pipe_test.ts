// `dbagenteval db diff A B | head -2`: a reader that stops early must end the
// command quietly, as it ends Unix tools (SIGPIPE, reported as 141): no stack
// trace on stderr, and never exit code 1, which means "no match" or "failed".
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { makeDb, tempDir } from "./fixtures.ts";
import { cliCommand } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());

// 20,000 changed rows: far more output than a pipe's buffer holds.
const rows = (v: string) =>
  `CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
   WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
   INSERT INTO t SELECT i, '${v}' || i FROM c;`;
const before = makeDb(dir.file("before.db"), rows("x"));
const afterDb = makeDb(dir.file("after.db"), rows("y"));

/** Runs the CLI into `head -2` and returns its exit code and stderr. */
function intoHead(args: string[]): { code: string; stderr: string; head: string } {
  const script = `"$@" 2>"${dir.file("stderr.txt")}" | head -2; echo "exit=\${PIPESTATUS[0]}"`;
  const r = spawnSync("bash", ["-c", script, "_", ...cliCommand(), ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 120_000,
  });
  const stderr = spawnSync("cat", [dir.file("stderr.txt")], { encoding: "utf8" }).stdout;
  const lines = r.stdout.trimEnd().split("\n");
  return { code: lines.pop() ?? "", head: lines.join("\n"), stderr };
}

const cases: [name: string, args: string[], head: RegExp][] = [
  [
    "the text summary",
    ["db", "diff", before, afterDb, "--max-rows", "100000"],
    /after\.db: changed/,
  ],
  ["the JSON document on stdout", [
    "db",
    "diff",
    before,
    afterDb,
    "--max-rows",
    "100000",
    "--json",
    "-",
  ], /^\{/],
];

describe("a closed stdout", () => {
  for (const [name, args, head] of cases) {
    it(`ends db diff quietly with exit 141 when head stops reading ${name}`, () => {
      const r = intoHead(args);
      assert.match(r.head, head);
      assert.equal(r.code, "exit=141", r.stderr);
      assert.equal(r.stderr, "");
    });
  }
});

/** Runs the CLI into a reader that waits a second before reading; its byte count and exit code. */
function intoSlowReader(args: string[]): { code: string; bytes: number; stderr: string } {
  const script = `"$@" 2>"${
    dir.file("stderr.txt")
  }" | (sleep 1; wc -c); echo "exit=\${PIPESTATUS[0]}"`;
  const r = spawnSync("bash", ["-c", script, "_", ...cliCommand(), ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 120_000,
  });
  const stderr = spawnSync("cat", [dir.file("stderr.txt")], { encoding: "utf8" }).stdout;
  const [bytes, code] = r.stdout.trim().split("\n");
  return { code: code ?? "", bytes: Number(bytes), stderr };
}

// Bun makes a piped stdout non-blocking: a write into a full pipe failed
// with EAGAIN ("internal error") before writes waited for the reader.
describe("a slow reader", () => {
  for (const flag of [["--sql"], ["--json", "-"]]) {
    it(`gets all of db diff ${flag.join(" ")}, exit 0, however long it waits`, () => {
      const file = dir.file(`whole${flag[0]}.txt`);
      const whole = spawnSync(
        "bash",
        ["-c", `"$@" > "${file}"`, "_", ...cliCommand(), "db", "diff", before, afterDb, ...flag],
        { encoding: "utf8", timeout: 120_000 },
      );
      assert.equal(whole.status, 0, whole.stderr);
      const size = spawnSync("wc", ["-c", file], { encoding: "utf8" }).stdout.trim().split(" ")[0];
      const r = intoSlowReader(["db", "diff", before, afterDb, ...flag]);
      assert.equal(r.stderr, "");
      assert.equal(r.code, "exit=0");
      assert.ok(r.bytes > 65536 * 4, `more than a pipe holds (${r.bytes} bytes)`);
      assert.equal(r.bytes, Number(size));
    });
  }
});

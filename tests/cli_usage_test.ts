/**
 * End to end: the command line's own rough edges, each as a user hit it.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "./cli.ts";
import { VERSION } from "../lib/version.ts";

describe("dbagenteval usage errors and help", () => {
  const errors: [string, string[], string][] = [
    [
      "names an unknown option first, with a did-you-mean, before a missing required option",
      ["counterexample", "--dbb", "x.db"],
      "error: unknown option '--dbb' (Did you mean --db?) (run dbagenteval counterexample --help for usage)\n",
    ],
    [
      "names --agnet with a did-you-mean",
      ["run", "cases.yaml", "--agnet", "x.ts:fn"],
      "error: unknown option '--agnet' (Did you mean --agent?) (run dbagenteval run --help for usage)\n",
    ],
    [
      "points a subcommand's error at that subcommand's help",
      ["db", "diff", "a.db"],
      "error: missing required argument 'after' (run dbagenteval db diff --help for usage)\n",
    ],
    [
      "points an unknown subcommand at its parent's help",
      ["db", "dif"],
      "error: unknown command 'dif' (Did you mean diff?) (run dbagenteval db --help for usage)\n",
    ],
    [
      "names the command help does not know, as for the command itself",
      ["help", "nonsense"],
      "error: unknown command 'nonsense' (run dbagenteval --help for usage)\n",
    ],
    [
      "names the subcommand help does not know, with a did-you-mean",
      ["help", "db", "dif"],
      "error: unknown command 'dif' (Did you mean diff?) (run dbagenteval db --help for usage)\n",
    ],
  ];
  for (const [name, args, stderr] of errors) {
    it(`${name}, exit 2`, () => {
      const r = runCli(args);
      assert.equal(r.code, 2, r.stdout);
      assert.equal(r.stderr, stderr);
      assert.equal(r.stdout, "");
    });
  }

  it("help db diff prints the help of db diff", () => {
    const r = runCli(["help", "db", "diff"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Usage: dbagenteval db diff \[options\] <before> <after>/);
  });

  it("help run prints the help of run", () => {
    const r = runCli(["help", "run"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Usage: dbagenteval run \[options\] \[cases\]/);
  });

  for (const flag of ["-v", "-V", "--version"]) {
    it(`${flag} prints the version`, () => {
      const r = runCli([flag]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${VERSION}\n`);
    });
  }
});

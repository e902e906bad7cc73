/**
 * docs/reference.md lists every command and option as the CLI's own help
 * prints them: an option added without updating the page fails here (run
 * `deno run --allow-all tools/reference.ts` to update it).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { commandsReference, REFERENCE, withCommands } from "../tools/reference.ts";
import { runCli } from "./cli.ts";

describe("docs/reference.md", () => {
  it("shows the help of every command exactly as the CLI prints it", () => {
    const page = fs.readFileSync(REFERENCE, "utf8");
    const generated = commandsReference((args) => {
      const r = runCli(args, { env: { COLUMNS: "80" } });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    });
    assert.ok(generated.includes("### `dbagenteval db diff`"), "db diff is listed");
    assert.equal(
      page,
      withCommands(page, generated),
      "docs/reference.md is out of date: run deno run --allow-all tools/reference.ts",
    );
  });
});

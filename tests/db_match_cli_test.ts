import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());

describe("dbagenteval db match on a bad diff file", () => {
  const cases: [string, string, RegExp][] = [
    ["text that is not JSON", '{"version": 1', /not valid JSON/],
    ["a document of another version", '{"version": 2}', /at "version"/],
  ];
  for (const [name, content, reason] of cases) {
    it(`db match names the diff file in its one-line error for ${name}`, () => {
      const file = dir.file(`${name.replaceAll(/\W/g, "_")}.json`);
      fs.writeFileSync(file, content);
      const r = runCli(["db", "match", file, '{"rows": {"added": "v"}}']);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, /^error: Cannot use "/);
      assert.ok(r.stderr.includes(`"${file}"`), r.stderr);
      assert.match(r.stderr, reason);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    });
  }
});

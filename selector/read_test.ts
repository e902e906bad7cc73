import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "../tests/fixtures.ts";
import { SelectorError } from "../lib/errors.ts";
import { readSelector } from "./read.ts";

const dir = tempDir();
after(() => dir.cleanup());

const EXPECTED = { rows: { changed: { has_one: ["password", "password_hash"] } } };
const YAML =
  "selector:\n  rows:\n    changed:\n      has_one:\n        - password\n        - password_hash\n";

// [name, argument (a file's content is written first when it starts with "file:"), expected]
const cases: [string, () => string, unknown][] = [
  ["reads inline JSON", () => JSON.stringify(EXPECTED), EXPECTED],
  ["reads inline YAML with a top-level selector key", () => YAML, EXPECTED],
  ["reads a YAML file", () => {
    fs.writeFileSync(dir.file("s.yaml"), YAML);
    return dir.file("s.yaml");
  }, EXPECTED],
  ["reads a JSON file", () => {
    fs.writeFileSync(dir.file("s.json"), JSON.stringify({ selector: EXPECTED }));
    return dir.file("s.json");
  }, EXPECTED],
  [
    "keeps an integer beyond 2^53 exact, as a bigint",
    () => '{"rows": {"added": {"where": {"v": {"$in": [9007199254740993, -9007199254740993]}}}}}',
    { rows: { added: { where: { v: { $in: [9007199254740993n, -9007199254740993n] } } } } },
  ],
  [
    "keeps an integer beyond 2^53 exact in YAML by_key",
    () => "rows:\n  by_key:\n    id: 12345678901234567890\n  changed: v\n",
    { rows: { by_key: { id: 12345678901234567890n }, changed: "v" } },
  ],
  [
    "reads integers that fit as numbers (a $count stays a count)",
    () => '{"rows": {"added": {"where": {"v": 9007199254740991}, "$count": {"$gte": 2}}}}',
    { rows: { added: { where: { v: 9007199254740991 }, $count: { $gte: 2 } } } },
  ],
];

describe("readSelector()", () => {
  for (const [name, argument, expected] of cases) {
    it(name, async () => {
      assert.deepEqual(await readSelector(argument()), expected);
    });
  }

  const bad: [string, () => string, string][] = [
    ["a missing file that is not a selector either", () => dir.file("nope.json"), "neither a file"],
    ["text that is not JSON or YAML", () => "{rows: [", "not valid JSON or YAML"],
    ["a file with a mistake, named by its JSON path", () => {
      fs.writeFileSync(dir.file("bad.yaml"), "selector:\n  rows:\n    chnaged: role\n");
      return dir.file("bad.yaml");
    }, `selector.rows: unknown key "chnaged"; did you mean "changed"?`],
  ];
  it("ends a YAML error on what is wrong and where, not on a dangling colon", async () => {
    const inline = '{"tables":{"name":"logs"},"rows":{"removed":{"where":{"id":9999}}}';
    await assert.rejects(readSelector(inline), (error: unknown) => {
      assert.ok(error instanceof SelectorError);
      assert.equal(
        error.message,
        'inline selector is not valid JSON or YAML: Flow map must end with a } at line 1, column 67, just after ...":{"where":{"id":9999}}}; check its brackets and quotes',
      );
      return true;
    });
  });
  const named: [string, string, string][] = [
    ["an empty file", "", "is empty; write a selector in it, such as rows: {added: role}"],
    [
      "a file of comments only",
      "# nothing yet\n\n",
      "is empty; write a selector in it, such as rows: {added: role}",
    ],
    ["a file holding a number", "42\n", ": expected a selector object, got a number (42)"],
    [
      "a file with a typo",
      "rows:\n  addd: role\n",
      ': rows: unknown key "addd"; did you mean "added"?',
    ],
  ];
  for (const [name, text, words] of named) {
    it(`names the file of ${name} (it did not)`, async () => {
      const file = dir.file(`named-${name.replaceAll(" ", "-")}.yaml`);
      fs.writeFileSync(file, text);
      await assert.rejects(readSelector(file), (error: unknown) => {
        assert.ok(error instanceof SelectorError);
        assert.ok(error.message.startsWith(`selector file "${file}"`), error.message);
        assert.ok(error.message.endsWith(words), error.message);
        return true;
      });
    });
  }
  it("keeps the JSON path of a mistake in a file, and names the file apart", async () => {
    const file = dir.file("path.yaml");
    fs.writeFileSync(file, "rows:\n  changed:\n    has_one: 3\n");
    await assert.rejects(readSelector(file), (error: unknown) => {
      assert.ok(error instanceof SelectorError);
      assert.equal(error.jsonPath, "rows.changed.has_one");
      assert.equal(error.file, file);
      return true;
    });
  });
  for (const [name, argument, words] of bad) {
    it(`raises a SelectorError for ${name}`, async () => {
      await assert.rejects(readSelector(argument()), (error: unknown) => {
        assert.ok(error instanceof SelectorError);
        assert.ok(error.message.includes(words), error.message);
        return true;
      });
    });
  }
});

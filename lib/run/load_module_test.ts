import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  loadChecks,
  loadExport,
  loadFunction,
  moduleCandidates,
  parseModuleRef,
} from "./load_module.ts";
import { progressLine } from "./progress.ts";
import { UsageError } from "../errors.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-load-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(
  path.join(dir, "shop.ts"),
  `export const myAgent = (q: string): string => q;
export const RULES = [{ name: "a", run: () => [] }];
export class MyRule { name = "r"; run() { return []; } }
export const CLASSES = [MyRule];
export const ONE = new MyRule();
`,
);
fs.writeFileSync(path.join(dir, "only.js"), "export function agent() { return 'js'; }\n");
fs.writeFileSync(path.join(dir, "only_snake.js"), "export const run_sql = () => [];\n");
fs.writeFileSync(path.join(dir, "syntax.ts"), "export const a = 1;\nexport const b = ( => 1;\n");
fs.writeFileSync(path.join(dir, "default_only.ts"), "export default () => 'd';\n");
fs.writeFileSync(path.join(dir, "throws.ts"), "throw new Error('no API key');\n");
fs.mkdirSync(path.join(dir, "examples"));
fs.writeFileSync(path.join(dir, "examples", "toy.ts"), "export const agent = () => 'toy';\n");

describe("parseModuleRef()", () => {
  const cases: [string, string, { module: string; exportName: string } | RegExp][] = [
    ["splits file and export", "shop:my_agent", { module: "shop", exportName: "my_agent" }],
    ["keeps the extension", "shop.ts:myAgent", { module: "shop.ts", exportName: "myAgent" }],
    ["splits at the last colon", "C:\\work\\shop.ts:agent", {
      module: "C:\\work\\shop.ts",
      exportName: "agent",
    }],
    ["rejects a reference with no export", "shop.ts", /expected file:export/],
    ["rejects an empty export", "shop.ts:", /expected file:export/],
    ["rejects an empty file", ":agent", /expected file:export/],
    ["rejects a bare drive letter", "C:agent", /expected file:export/],
  ];
  for (const [name, input, expected] of cases) {
    it(`parseModuleRef() ${name}`, () => {
      if (expected instanceof RegExp) {
        assert.throws(
          () => parseModuleRef("--agent", input),
          (e) => e instanceof UsageError && expected.test(e.message),
        );
      } else assert.deepEqual(parseModuleRef("--agent", input), expected);
    });
  }
});

describe("moduleCandidates()", () => {
  const cases: [string, string, string[]][] = [
    ["takes a file with an extension as it is", "shop.ts", ["shop.ts"]],
    ["tries .ts, .js, .mts and .mjs without an extension", "shop", [
      "shop.ts",
      "shop.js",
      "shop.mts",
      "shop.mjs",
    ]],
    ["also tries a dotted name as a path", "examples.toy", [
      "examples.toy.ts",
      "examples.toy.js",
      "examples.toy.mts",
      "examples.toy.mjs",
      "examples/toy.ts",
      "examples/toy.js",
      "examples/toy.mts",
      "examples/toy.mjs",
    ]],
    ["does not split dots in a name with a slash", "lib/a.b", [
      "lib/a.b.ts",
      "lib/a.b.js",
      "lib/a.b.mts",
      "lib/a.b.mjs",
    ]],
  ];
  for (const [name, input, expected] of cases) {
    it(`moduleCandidates() ${name}`, () => {
      assert.deepEqual(moduleCandidates(input, "/w"), expected.map((f) => path.resolve("/w", f)));
    });
  }
});

describe("loadExport()", () => {
  const cases: [string, string, string | RegExp][] = [
    ["loads an export of a .ts file", "shop.ts:myAgent", "function"],
    ["finds shop.ts from shop", "shop:myAgent", "function"],
    ["finds only.js from only", "only:agent", "function"],
    ["finds examples/toy.ts from examples.toy", "examples.toy:agent", "function"],
    ["maps a snake_case name to its camelCase export", "shop:my_agent", "function"],
    ["maps a camelCase name to its snake_case export", "only_snake:runSql", "function"],
    ["does not lower-case a name without humps", "shop:rules", /has no export 'rules'/],
    [
      "says what a module exports when the name is wrong",
      "shop:nope",
      /shop\.ts has no export 'nope'; it exports CLASSES, MyRule, ONE, RULES, myAgent/,
    ],
    [
      "names the line of a syntax error in the module",
      "syntax:b",
      /^cannot import 'syntax': .+ \(syntax\.ts:2:\d+\)$/,
    ],
    [
      "gives the error a module throws on import, in one line",
      "throws:a",
      /^cannot import 'throws': no API key$/,
    ],
    ["lists a default export among the exports", "default_only:agent", /it exports default$/],
    ["loads a default export by its name", "default_only:default", "function"],
    [
      "says cannot import when no file matches",
      "nowhere:agent",
      /^cannot import 'nowhere': no nowhere\.ts, nowhere\.js/,
    ],
  ];
  for (const [name, ref, expected] of cases) {
    it(`loadExport() ${name}`, async () => {
      if (expected instanceof RegExp) {
        await assert.rejects(
          loadExport("--agent", ref, dir),
          (e) => e instanceof UsageError && expected.test(e.message),
        );
      } else assert.equal(typeof await loadExport("--agent", ref, dir), expected);
    });
  }

  it("loadFunction() rejects an export that is not a function", async () => {
    await assert.rejects(
      loadFunction("--agent", "shop:RULES", dir),
      /--agent shop:RULES is a list, not a function/,
    );
  });
});

describe("loadChecks()", () => {
  it("loadChecks() returns a list of checks", async () => {
    const checks = await loadChecks("--rules", "shop:RULES", dir);
    assert.deepEqual(checks.map((c) => c.name), ["a"]);
  });
  it("loadChecks() takes a single check as a list of one", async () => {
    assert.equal((await loadChecks("--rules", "shop:ONE", dir)).length, 1);
  });
  it("loadChecks() says to write new MyRule() when given the class", async () => {
    await assert.rejects(
      loadChecks("--rules", "shop:CLASSES", dir),
      /item 1 is a class or function, not a check; write new MyRule\(\) in the list/,
    );
  });
  it("loadChecks() rejects a value that is not a check", async () => {
    await assert.rejects(loadChecks("--rules", "shop:myAgent", dir), /it is a class or function/);
  });
});

describe("progressLine()", () => {
  it("progressLine() draws and erases a line on a terminal", () => {
    const out: string[] = [];
    const p = progressLine({ isTTY: true, write: (t: string) => out.push(t) });
    p.update(3, 3);
    p.done();
    assert.deepEqual(out, ["\r\x1b[K3/3 case(s) done", "\r\x1b[K"]);
  });
  it("progressLine() writes nothing when the stream is not a terminal", () => {
    const out: string[] = [];
    const p = progressLine({ isTTY: false, write: (t: string) => out.push(t) });
    p.update(1, 3);
    p.done();
    assert.deepEqual(out, []);
  });
});

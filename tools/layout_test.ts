import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { importsOf, layoutPicture, PICTURE_MARKER, readLayout, roomOf } from "./layout.ts";

const root = path.resolve(import.meta.dirname!, "..");
const layout = readLayout(root);
const shown = (list: readonly { from: string; to: string }[]) =>
  list.map((i) => `${i.from} -> ${i.to}`);

describe("the repository's layout", () => {
  it("has every import of the library point down a floor (no arrow up, no circle)", () => {
    assert.deepEqual(shown(layout.upward), []);
  });

  it("imports no _ file from another folder", () => {
    assert.deepEqual(shown(layout.privateAcross), []);
  });

  it("puts every room of the library on a floor", () => {
    assert.deepEqual(layout.unplaced, []);
  });

  it("is drawn in docs/architecture.md as the source has it", () => {
    const doc = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
    const picture = layoutPicture(layout);
    assert.ok(
      doc.includes(`${PICTURE_MARKER}\n\n\`\`\`\n${picture}\n\`\`\``),
      `docs/architecture.md shows another layout: run deno run -A tools/layout.ts --write\n${picture}`,
    );
  });
});

describe("importsOf()", () => {
  const cases: [string, string, string[]][] = [
    [
      "reads static, type and re-export imports",
      'import { a } from "./a.ts";\nimport type { B } from "../b.ts";\nexport { c } from "./c.ts";',
      ["./a.ts", "../b.ts", "./c.ts"],
    ],
    ["reads a dynamic import", 'const m = await import("../x/y.ts");', ["../x/y.ts"]],
    [
      "leaves out the imports of JSDoc examples and comments",
      '/**\n * import { a } from "../../mod.ts";\n */\n// import "./z.ts";\n',
      [],
    ],
    ["leaves out package imports", 'import * as v from "valibot";', []],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => assert.deepEqual(importsOf(text), expected));
  }
});

describe("roomOf()", () => {
  const cases: [string, string | undefined][] = [
    ["lib/eval/checks/expected.ts", "lib/eval"],
    ["lib/errors.ts", "lib/*.ts"],
    ["rules/_parsers/sqlite.ts", "rules"],
    ["mod.ts", "mod.ts"],
    ["tests/fixtures.ts", undefined],
  ];
  for (const [file, room] of cases) {
    it(`puts ${file} in ${room ?? "no room"}`, () => assert.equal(roomOf(file), room));
  }
});

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { snapshotDir, tempDir } from "./fixtures.ts";

const dir = tempDir();
after(() => dir.cleanup());

describe("snapshotDir()", () => {
  const changes: [string, (sub: string) => void][] = [
    ["a new folder", (sub) => fs.mkdirSync(`${sub}/made.db`)],
    ["a new symlink", (sub) => fs.symlinkSync(`${sub}/a.db`, `${sub}/link.db`)],
    ["a new dangling symlink", (sub) => fs.symlinkSync(`${sub}/gone.db`, `${sub}/dangling.db`)],
    ["a changed file", (sub) => fs.writeFileSync(`${sub}/a.db`, "changed")],
  ];
  for (const [name, change] of changes) {
    it(`notices ${name}`, () => {
      const sub = fs.mkdtempSync(dir.file("s-"));
      fs.writeFileSync(`${sub}/a.db`, "bytes");
      const before = snapshotDir(sub);
      change(sub);
      assert.notDeepEqual(snapshotDir(sub), before);
    });
  }
});

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cachedJudge } from "./cache.ts";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "judge-cache-"));
}

describe("cachedJudge()", () => {
  it("cachedJudge() answers a repeated prompt from the folder, across instances", async () => {
    const dir = tempDir();
    let calls = 0;
    const judge = () => `PASS\ncall ${++calls}`;
    const first = cachedJudge(judge, { dir, endpoint: "http://x/v1", model: "m" });
    assert.equal(await first.judge("p"), "PASS\ncall 1");
    const second = cachedJudge(judge, { dir, endpoint: "http://x/v1", model: "m" });
    assert.equal(await second.judge("p"), "PASS\ncall 1");
    assert.equal(calls, 1);
    assert.equal(second.hits(), 1);
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp")).length, 0);
  });

  const keys: [
    string,
    { endpoint: string; model: string; options?: Record<string, unknown> },
    string,
  ][] = [
    ["another endpoint", { endpoint: "http://y/v1", model: "m" }, "p"],
    ["another model", { endpoint: "http://x/v1", model: "n" }, "p"],
    ["other options", { endpoint: "http://x/v1", model: "m", options: { temperature: 1 } }, "p"],
    ["another prompt", { endpoint: "http://x/v1", model: "m" }, "q"],
  ];
  for (const [name, key, prompt] of keys) {
    it(`cachedJudge() asks again for ${name}`, async () => {
      const dir = tempDir();
      let calls = 0;
      const judge = () => `PASS ${++calls}`;
      await cachedJudge(judge, { dir, endpoint: "http://x/v1", model: "m" }).judge("p");
      assert.equal(await cachedJudge(judge, { dir, ...key }).judge(prompt), "PASS 2");
    });
  }

  it("cachedJudge() never caches an error", async () => {
    const dir = tempDir();
    let calls = 0;
    const flaky = () => {
      if (++calls === 1) throw new Error("503");
      return "PASS";
    };
    const { judge } = cachedJudge(flaky, { dir, endpoint: "e", model: "m" });
    await assert.rejects(async () => await judge("p"), /503/);
    assert.equal(fs.readdirSync(dir).length, 0);
    assert.equal(await judge("p"), "PASS");
    assert.equal(await judge("p"), "PASS");
    assert.equal(calls, 2);
  });
});

/**
 * Each parser is loaded by the first query of its dialect, never by a run
 * over another dialect: checked in a fresh process, since test files may
 * share one (Bun).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";

const SCRIPT = `
import { ReadOnly, TenantFilter } from ${JSON.stringify(new URL("./mod.ts", import.meta.url).href)};
import { Trace } from ${JSON.stringify(new URL("../lib/eval/trace.ts", import.meta.url).href)};
import { pgQueryRequested } from ${JSON.stringify(new URL("./_pg_query.ts", import.meta.url).href)};
const trace = Trace.simple("q", { sql: "SELECT a FROM t WHERE store_id = 's1'" });
const seen = [];
for (const dialect of ["sqlite", "mysql", "postgres"]) {
  await new ReadOnly({ dialect }).run(trace);
  await new TenantFilter("store_id", { dialect }).run(trace);
  seen.push(dialect + ":" + pgQueryRequested());
}
console.log(seen.join(" "));
`;

describe("parser loading", () => {
  it("PostgreSQL's parser is loaded by the first postgres query, not by sqlite or mysql ones", () => {
    const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
    const args = isBun ? ["-e", SCRIPT] : ["eval", "--ext=ts", SCRIPT];
    const r = spawnSync(process.execPath, args, { encoding: "utf8" });
    assert.equal(r.stdout.trim(), "sqlite:false mysql:false postgres:true", r.stderr);
  });
});

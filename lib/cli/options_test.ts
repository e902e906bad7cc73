import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { InvalidArgumentError } from "@commander-js/extra-typings";
import { toOption } from "./options.ts";
import { RUN_OPTION_ROWS } from "../eval/run_options.ts";
import { configKeyOf, type OptionRow } from "../option_values.ts";

const rows: readonly OptionRow[] = RUN_OPTION_ROWS;

describe("run's option table", () => {
  for (const row of rows) {
    it(`gives ${row.flags} the property commander parses it into (${row.key})`, () => {
      assert.equal(toOption(row).attributeName(), row.key);
    });
  }

  it("gives every config key to one row", () => {
    const keys = rows.map(configKeyOf).filter((k) => k !== undefined);
    assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), []);
    assert.ok(
      keys.includes("agent_db") && keys.includes("rules") && keys.includes("keep_distinct"),
    );
    assert.ok(!keys.includes("config") && !keys.includes("no_cache"));
  });

  it("turns a parser's UsageError into commander's invalid-argument error", () => {
    const concurrency = toOption(rows.find((r) => r.key === "concurrency")!);
    assert.throws(
      () => concurrency.parseArg!("0", undefined as never),
      (e: unknown) =>
        e instanceof InvalidArgumentError && /whole number of at least 1, got "0"/.test(e.message),
    );
  });
});

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Trace } from "../lib/eval/trace.ts";
import { UsageError } from "../lib/errors.ts";
import { DEFAULT_FORBIDDEN_FUNCTIONS, ReadOnly } from "./read_only.ts";

const sql = (s: string): Trace => Trace.simple("q", { sql: s });

describe("ReadOnly", () => {
  const details: [string, string, string][] = [
    ["names the statement kind", "DELETE FROM orders", "DELETE statement"],
    [
      "counts the statements of a multi-statement string",
      "SELECT 1; SELECT 2",
      "2 statements; ReadOnly wants one",
    ],
    [
      "names the forbidden function",
      "SELECT readfile('/etc/passwd')",
      "forbidden function readfile",
    ],
    [
      "names the locking clause",
      "SELECT * FROM t WHERE a = 1 FOR UPDATE",
      "locking clause FOR UPDATE",
    ],
  ];
  for (const [name, text, detail] of details) {
    it(`ReadOnly ${name}`, async () => {
      assert.deepEqual(await new ReadOnly().run(sql(text)), {
        name: "read_only",
        stage: "generate",
        status: "FAIL",
        detail,
      });
    });
  }

  it("ReadOnly fails SQL the parser cannot read, with the parser's message", async () => {
    const r = await new ReadOnly().run(sql("SELEC 1"));
    assert.ok(!Array.isArray(r));
    assert.equal((r as { status: string }).status, "FAIL");
    assert.match(
      (r as { detail: string }).detail,
      /^cannot parse the SQL as sqlite \(line 1, column 7\): .*found/,
    );
  });

  it("ReadOnly skips a trace without SQL", async () => {
    const r = await new ReadOnly().run(Trace.simple("q", { answer: "hi" }));
    assert.deepEqual(r, {
      name: "read_only",
      stage: "generate",
      status: "SKIP",
      detail: "no SQL in the trace",
    });
  });

  it("ReadOnly reports at each generate stage by its name", async () => {
    const trace = new Trace("q", [
      { kind: "generate", name: "draft", output: "SELECT 1" },
      { kind: "generate", name: "final", output: "DROP TABLE t" },
    ]);
    const r = await new ReadOnly().run(trace);
    assert.deepEqual(
      (r as { stage: string; status: string }[]).map((x) => [x.stage, x.status]),
      [["draft", "PASS"], ["final", "FAIL"]],
    );
  });

  it("ReadOnly takes a full list of forbidden functions, replacing the default", async () => {
    const rule = new ReadOnly({
      forbiddenFunctions: [...DEFAULT_FORBIDDEN_FUNCTIONS, "my_function"],
    });
    const r = await rule.run(sql("SELECT MY_FUNCTION(1)"));
    assert.equal((r as { detail: string }).detail, "forbidden function my_function");
    const loose = await new ReadOnly({ forbiddenFunctions: [] }).run(sql("SELECT readfile('x')"));
    assert.equal((loose as { status: string }).status, "PASS");
  });

  it("DEFAULT_FORBIDDEN_FUNCTIONS holds every function the issue lists", () => {
    const wanted = [
      "pg_sleep",
      "pg_read_file",
      "pg_read_binary_file",
      "pg_ls_dir",
      "pg_stat_file",
      "lo_import",
      "lo_export",
      "dblink",
      "dblink_exec",
      "pg_terminate_backend",
      "pg_cancel_backend",
      "set_config",
      "nextval",
      "setval",
      "sleep",
      "benchmark",
      "load_file",
      "load_extension",
      "readfile",
      "writefile",
      "edit",
      "fts3_tokenizer",
    ];
    assert.deepEqual(wanted.filter((f) => !DEFAULT_FORBIDDEN_FUNCTIONS.includes(f)), []);
  });

  it("ReadOnly refuses an unknown dialect with a usage error", () => {
    assert.throws(() => new ReadOnly({ dialect: "oracle" }), UsageError);
  });
});

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { defineCase } from "./cases.ts";
import { runSuite } from "./suite.ts";
import { toRunFile } from "./run_file.ts";
import { htmlReport } from "./report_html.ts";

describe("htmlReport()", () => {
  it("htmlReport() keeps the agent's text out of the markup and makes unpaired surrogates U+FFFD", async () => {
    const nasty = "</script><script>alert(1)</script> <!-- \ud800 \u2028";
    const cases = [
      defineCase({ id: `x</td>${nasty}`, question: nasty, expect: { rows: [{ n: 1 }] } }),
    ];
    const html = htmlReport(
      toRunFile(await runSuite(cases, () => ({ sql: nasty, rows: [{ n: nasty }] }))),
    );
    assert.equal((html.match(/<\/script>/g) ?? []).length, 2);
    assert.equal((html.match(/<script/g) ?? []).length, 2);
    assert.doesNotMatch(html, /<!--/);
    assert.doesNotMatch(html, /[\ud800-\udfff]/);
    assert.match(html, /x&lt;\/td&gt;&lt;\/script&gt;/);
    const json = /<script type="application\/json" id="run-data">(.*?)<\/script>/s.exec(html)![1]!;
    assert.equal(
      JSON.parse(json).cases[0].sql,
      "</script><script>alert(1)</script> <!-- \ufffd \u2028",
    );
  });

  it("htmlReport() shows the first 100 cases at once and hides the rest until the page's script runs", async () => {
    const cases = Array.from(
      { length: 150 },
      (_, i) => defineCase({ id: `c${i}`, question: `Q${i}?` }),
    );
    const html = htmlReport(toRunFile(await runSuite(cases, () => "an answer")));
    const rows = [...html.matchAll(/<tr class="case[^>]*>/g)].map((m) => m[0]);
    assert.equal(rows.length, 150);
    assert.equal(rows.filter((r) => / hidden /.test(r)).length, 50);
    assert.ok(!/ hidden /.test(rows[99]!) && / hidden /.test(rows[100]!));
    assert.match(html, /<noscript><p>The first 100 cases are shown/);
  });

  const summaries: [string, (q: string) => unknown, string][] = [
    [
      "every case an ERROR",
      (q) => {
        if (q.startsWith("A")) throw new Error("the model is down");
        return { sql: "SELECT 1 AS n", rows: [{ n: 1 }] };
      },
      `<p class="muted" id="chart-empty">No case failed a check; 3 cases ended in ERROR: 2 calling the agent, 1 running the reference SQL.</p>`,
    ],
    [
      "FAIL and ERROR cases",
      (q) => {
        if (q.startsWith("A1")) throw new Error("the model is down");
        return { sql: "SELECT 2 AS n", rows: [{ n: 2 }] };
      },
      `<p class="muted" id="chart-errors">Not in the chart: 2 cases ended in ERROR: 1 calling the agent, 1 running the reference SQL.</p>`,
    ],
  ];
  for (const [name, agent, expected] of summaries) {
    it(`htmlReport() says what is true under the chart with ${name}`, async () => {
      const cases = [
        defineCase({ id: "a1", question: "A1?", reference_sql: "SELECT 1 AS n" }),
        defineCase({ id: "a2", question: "A2?", reference_sql: "SELECT 1 AS n" }),
        defineCase({ id: "b", question: "B?", reference_sql: "SELECT n FROM missing" }),
      ];
      const execute = (sql: string) => {
        if (sql.includes("missing")) throw new Error("no such table: missing");
        return [{ n: 1 }];
      };
      const html = htmlReport(
        toRunFile(
          await runSuite(cases, agent, { execute }),
        ),
      );
      assert.ok(html.includes(expected), /<section class="chart">.*?<\/section>/s.exec(html)?.[0]);
      assert.doesNotMatch(html, /No case failed at any stage/);
    });
  }

  it("htmlReport() says no case failed or ended in ERROR when none did", async () => {
    const html = htmlReport(
      toRunFile(await runSuite([defineCase({ question: "Hi?" })], () => "Hi")),
    );
    assert.match(html, /<p class="muted" id="chart-empty">No case failed or ended in ERROR\.<\/p>/);
  });

  it("htmlReport() carries each case's reference SQL in the page's data", async () => {
    const cases = [
      defineCase({ id: "a", question: "A?", reference_sql: "SELECT 1 AS n -- </script>" }),
      defineCase({ id: "b", question: "B?" }),
    ];
    const run = toRunFile(
      await runSuite(cases, () => ({ sql: "SELECT 2 AS n" }), {
        execute: () => [{ n: 1 }],
      }),
    );
    const json = /<script type="application\/json" id="run-data">(.*?)<\/script>/s.exec(
      htmlReport(run),
    )![1]!;
    assert.deepEqual(
      JSON.parse(json).cases.map((c: { reference_sql?: string }) => c.reference_sql),
      ["SELECT 1 AS n -- </script>", undefined],
    );
  });
});

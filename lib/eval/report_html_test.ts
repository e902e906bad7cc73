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
});

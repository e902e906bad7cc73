/**
 * The HTML report in a real browser: headless Chromium (Debian's package,
 * /usr/bin/chromium; .ci/run installs it) loads the report from its file,
 * runs its script, and the test checks the DOM it leaves (the totals, the
 * chart, the table, the filters, an opened case with its trace, checks,
 * rows with the differing cells marked, and its database diff), that the
 * page logged nothing to the console, and that a screenshot of it has the
 * window's size and is not blank. Chromium is driven with its command-line
 * switches (--dump-dom, --screenshot), which work the same under Deno and
 * Bun.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeDb, tempDir } from "./fixtures.ts";
import { ROOT, runCli } from "./cli.ts";
import { needs } from "./system_packages.ts";
import { openInChromium, type Page, pngFacts } from "./_chromium.ts";

const dir = tempDir("dbagenteval-html-");
after(() => dir.cleanup());

/** Loads a file in headless Chromium (tests/_chromium.ts), with a profile in this file's temp folder. */
function chromium(file: string, options: { hash?: string; screenshot?: string } = {}): Page {
  return openInChromium(file, { ...options, profiles: dir.path });
}

/** The case rows of the table that are shown (not hidden by a filter). */
function shownCases(dom: string): string[] {
  return [...dom.matchAll(/<tr class="case[^"]*"([^>]*)>.*?<td class="id">([^<]*)<\/td>/g)]
    .filter((m) => !/\shidden=/.test(m[1]!))
    .map((m) => m[2]!);
}

// A report with PASS, FAIL and ERROR, tags, reference rows that differ in one cell, and an error.
fs.writeFileSync(
  dir.file("agents.js"),
  `export function agent(question) {
  if (question.includes("broken")) throw new Error("the model is down <b>&</b>");
  if (question.includes("Hello")) return { answer: "Hello!" };
  const wrong = question.includes("pears");
  return {
    sql: "SELECT name, n FROM fruit ORDER BY name -- </script><script>alert(1)</script>",
    rows: [{ name: "apple", n: 2 }, { name: "pear", n: wrong ? 4 : 3 }],
    answer: "Two kinds \\u001b[31m\\ud800",
  };
}
`,
);
makeDb(
  dir.file("fruit.db"),
  "CREATE TABLE fruit (name TEXT, n INTEGER); INSERT INTO fruit VALUES ('apple', 2), ('pear', 3);",
);
fs.writeFileSync(
  dir.file("cases.yaml"),
  `- id: apples
  question: How many of each fruit, apples first?
  tags: [fruit]
  reference_sql: SELECT name, n FROM fruit ORDER BY name
- id: pears
  question: How many pears (the agent miscounts)?
  tags: [fruit, hard]
  reference_sql: SELECT name, n FROM fruit ORDER BY name
- id: broken
  question: A broken one?
  tags: [hard]
- id: chat
  question: Hello?
`,
);

describe("the HTML report in Chromium", { skip: needs("chromium") }, () => {
  const html = dir.file("report.html");
  const r = runCli(
    [
      "run",
      "cases.yaml",
      "--agent",
      "agents.js:agent",
      "--db",
      "fruit.db",
      "--html",
      html,
      "--json",
      "run.json",
    ],
    { cwd: dir.path },
  );

  it("run --html writes one self-contained file: no external script, style or link", () => {
    assert.equal(r.code, 1, r.stderr);
    const text = fs.readFileSync(html, "utf8");
    assert.doesNotMatch(text, /<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/i);
    assert.match(text, /Content-Security-Policy" content="default-src 'none'/);
    assert.equal((text.match(/<\/script>/g) ?? []).length, 2, "the agent's </script> is escaped");
  });

  it("loads from the file with no console message, and shows the totals, the chart and every case", () => {
    const page = chromium(html);
    assert.deepEqual(page.console, []);
    assert.match(page.dom, /<body data-ready="true">/);
    const run = JSON.parse(fs.readFileSync(dir.file("run.json"), "utf8"));
    for (const [id, n] of Object.entries(run.totals)) {
      if (id === "total") assert.match(page.dom, new RegExp(`<b id="total">${n}</b>`));
    }
    assert.match(page.dom, /<b id="failed">1<\/b>/);
    assert.match(page.dom, /<b id="errors">1<\/b>/);
    assert.match(page.dom, /<svg id="chart"[^>]*>.*<g class="bar" data-stage="execute">/s);
    assert.deepEqual(shownCases(page.dom), ["apples", "pears", "broken", "chat"]);
  });

  const filters: [string, string[]][] = [
    ["verdict=FAIL", ["pears"]],
    ["tag=hard", ["pears", "broken"]],
    ["tag=fruit&q=app", ["apples"]],
  ];
  for (const [hash, ids] of filters) {
    it(`filters the table by #${hash}`, () => {
      const page = chromium(html, { hash });
      assert.deepEqual(page.console, []);
      assert.deepEqual(shownCases(page.dom), ids);
    });
  }

  it("opens a case: trace stage by stage, every check, the SQL, and its rows beside the reference's with the differing cell marked", () => {
    const page = chromium(html, { hash: "open=pears" });
    assert.deepEqual(page.console, []);
    const detail =
      /<tr class="detail" data-for="pears">(.*?)<\/tr>\s*<tr class="case/s.exec(page.dom)?.[1] ??
        "";
    assert.ok(detail !== "", "the case opened");
    assert.deepEqual(
      [...detail.matchAll(/<li class="stage" data-kind="(\w+)"/g)].map((m) => m[1]),
      [
        "generate",
        "execute",
        "answer",
      ],
    );
    assert.equal((detail.match(/<tr class="check">/g) ?? []).length, run().cases[1]!.checks.length);
    assert.match(detail, /&lt;\/script&gt;&lt;script&gt;alert\(1\)/, "the SQL shows as text");
    const agent =
      /<h3>Agent \(2 row\(s\)\)<\/h3><table class="grid">(.*?)<\/table>/s.exec(detail)?.[1] ?? "";
    const marked = [...agent.matchAll(/<td class="diff">([^<]*)<\/td>/g)].map((m) => m[1]);
    assert.deepEqual(marked, ["4"], "only the miscounted cell is marked");
    assert.match(detail, /<h3>Reference \(2 row\(s\)\)<\/h3>/);
  });

  it("opens a case: the agent's SQL, then the reference SQL", () => {
    const page = chromium(html, { hash: "open=pears" });
    assert.deepEqual(page.console, []);
    assert.match(
      page.dom,
      /<h3>Agent's SQL<\/h3><pre class="sql">SELECT name, n FROM fruit ORDER BY name -- &lt;\/script&gt;.*?<\/pre><h3>Reference SQL<\/h3><pre class="sql reference-sql">SELECT name, n FROM fruit ORDER BY name<\/pre>/s,
    );
  });

  it("a screenshot has the window's size and is not blank", () => {
    const shot = dir.file("shot.png");
    chromium(html, { hash: "open=pears", screenshot: shot });
    const facts = pngFacts(shot);
    assert.deepEqual([facts.width, facts.height], [1280, 1000]);
    assert.ok(facts.distinct > 20, `a blank page has few distinct bytes, got ${facts.distinct}`);
  });
});

function run(): { cases: { checks: unknown[] }[] } {
  return JSON.parse(fs.readFileSync(dir.file("run.json"), "utf8"));
}

describe("the HTML report of a --agent-db run", { skip: needs("chromium") }, () => {
  it("shows the database diff of a case, and merge/report write the same report", () => {
    const db = dir.file("users.db");
    fs.copyFileSync(path.join(ROOT, "examples", "db_agent", "users.db"), db);
    const out = dir.file("db.json");
    runCli([
      "run",
      path.join(ROOT, "examples", "db_agent", "cases.yaml"),
      "--agent",
      `${path.join(ROOT, "examples", "db_agent", "agent.ts")}:agent`,
      "--agent-db",
      db,
      "--json",
      out,
    ]);
    const html = dir.file("db.html");
    const r = runCli(["report", out, "--html", html]);
    assert.equal(r.code, 1, r.stderr);
    const page = chromium(html, { hash: "open=promote-alice" });
    assert.deepEqual(page.console, []);
    const detail =
      /<tr class="detail" data-for="promote-alice">(.*?)<\/tr>\s*<tr class="case/s.exec(page.dom)
        ?.[1] ?? "";
    assert.match(
      detail,
      /<h3>Database diff<\/h3><div class="db-diff"><h3>users\.db \/ users: changed \(0 added, 0 removed, 1 changed\)<\/h3>/,
    );
    assert.match(
      detail,
      /<h3>Changed: before \(1 row\(s\)\)<\/h3>.*<td class="diff">manager<\/td>/s,
    );
    assert.match(detail, /<h3>Changed: after \(1 row\(s\)\)<\/h3>.*<td class="diff">admin<\/td>/s);
  });
});

describe("the HTML report of a --counterexamples run", { skip: needs("chromium") }, () => {
  it("shows the counterexample's database script and both results, the differing cell marked", () => {
    const saved = JSON.parse(fs.readFileSync(dir.file("run.json"), "utf8"));
    saved.cases[1].counterexample = {
      database_sql:
        "CREATE TABLE fruit (name TEXT, n INTEGER);\nINSERT INTO fruit VALUES ('fig', 20);\n",
      reference_rows: [{ n: 0 }],
      candidate_rows: [{ n: 1 }],
      tried: 3,
      seed: 1,
    };
    fs.writeFileSync(dir.file("cx.json"), JSON.stringify(saved));
    const html = dir.file("cx.html");
    const r = runCli(["report", dir.file("cx.json"), "--html", html]);
    assert.equal(r.code, 1, r.stderr);
    const page = chromium(html, { hash: "open=pears" });
    assert.deepEqual(page.console, []);
    assert.match(
      page.dom,
      /<h3>Counterexample \(found after 3 database\(s\), seed 1\)<\/h3><pre class="sql">CREATE TABLE fruit/,
    );
    assert.match(
      page.dom,
      /<h3>Agent's SQL on it \(1 row\(s\)\)<\/h3><table class="grid">.*?<td class="diff">1<\/td>/s,
    );
  });
});

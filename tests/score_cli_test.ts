/**
 * `dbagenteval run --score`: the leaderboards' scores beside our verdict,
 * on Spider's own gold and predictions files.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runCli } from "./cli.ts";
import { tempDir } from "./fixtures.ts";
import { writeTestSuite } from "./test_suite_fixture.ts";

const dir = tempDir("dbagenteval-score-");
after(() => dir.cleanup());
const SPIDER_DB = path.resolve(import.meta.dirname!, "data/spider/database");

function write(name: string, text: string): string {
  const file = dir.file(name);
  fs.writeFileSync(file, text);
  return file;
}

describe("run --score", () => {
  const gold = () =>
    write(
      "gold.sql",
      [
        "SELECT DISTINCT country FROM singer\tconcert_singer",
        "SELECT name FROM singer WHERE age > 40\tconcert_singer",
        "SELECT count(*) FROM singer\tconcert_singer",
      ].join("\n") + "\n",
    );
  const pred = () =>
    write(
      "pred.sql",
      [
        "SELECT country FROM singer", // a missing DISTINCT: Spider's evaluator strips it from the gold too
        "SELECT name, age FROM singer WHERE age > 40", // an extra column: ours allows it
        "SELECT count(*) FROM singer",
      ].join("\n") + "\n",
    );

  it("prints each score beside ours and the questions where they disagree, with the reason", () => {
    const r = runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      SPIDER_DB,
      "--score",
      "spider,bird-ex",
    ]);
    assert.equal(r.code, 1, r.stderr); // our verdict decides the exit code: question 1 fails
    const lines = r.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("spider:"));
    assert.ok(at >= 0, r.stdout);
    assert.equal(lines[at], "spider: 66.7% over 3 questions (ours: 66.7%); 2 disagree:");
    assert.match(
      lines[at + 1]!,
      /^ {2}0: spider PASS, ours FAIL: the official evaluator removes DISTINCT/,
    );
    assert.match(lines[at + 2]!, /^ {2}1: spider FAIL, ours PASS: 2 columns for the gold's 1/);
    assert.match(r.stdout, /^bird-ex: 66\.7% over 3 questions \(ours: 66\.7%\); 2 disagree:$/m);
    assert.match(
      r.stdout,
      /^ {2}0: bird-ex PASS, ours FAIL: duplicate rows or row order: BIRD compares sets of rows/m,
    );
  });

  it("writes the scores and the disagreements into the run file", () => {
    const out = dir.file("run.json");
    const r = runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      SPIDER_DB,
      "--score",
      "spider",
      "--json",
      out,
    ]);
    assert.equal(r.code, 1, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, "utf8"));
    assert.equal(run.totals.total, 3);
    assert.deepEqual(
      run.scores.map((
        s: { name: string; total: number; ours: number; questions: number },
      ) => [s.name, s.total, s.ours, s.questions]),
      [["spider", 66.667, 66.667, 3]],
    );
    assert.deepEqual(
      run.scores[0].disagreements.map((
        d: { id: string; official: boolean; ours: boolean },
      ) => [d.id, d.official, d.ours]),
      [["0", true, false], ["1", false, true]],
    );
    assert.match(run.scores[0].disagreements[1].reason, /2 columns for the gold's 1/);
  });

  it("shows the scores in the Markdown report", () => {
    const md = dir.file("report.md");
    runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      SPIDER_DB,
      "--score",
      "spider",
      "--md",
      md,
    ]);
    const text = fs.readFileSync(md, "utf8");
    assert.match(
      text,
      /## Score: spider\n\n66\.7% over 3 questions \(ours: 66\.7%\); 2 disagree\./,
    );
    assert.match(text, /\| 1 \| FAIL \| PASS \| 2 columns for the gold's 1/);
  });

  it("shows the scores in the HTML report", () => {
    const html = dir.file("report.html");
    runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      SPIDER_DB,
      "--score",
      "spider",
      "--html",
      html,
    ]);
    const text = fs.readFileSync(html, "utf8");
    assert.match(
      text,
      /<h2>Score: spider<\/h2>\n<p>66\.7% over 3 questions \(ours: 66\.7%\); 2 disagree\.<\/p>/,
    );
    assert.match(
      text,
      /<tr><td>1<\/td><td class="v-FAIL">FAIL<\/td><td class="v-PASS">PASS<\/td><td>2 columns for the gold's 1/,
    );
  });

  it("refuses a name that is not a score, naming the ones there are", () => {
    const r = runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      SPIDER_DB,
      "--score",
      "spyder",
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--score "spyder" is not a score; use one of: bird, spider, bird-ex, bird-f1, bird-ves/,
    );
  });
});

describe("run --score spider by the official evaluator's rules and flags", () => {
  // concert_singer with its test suite: copies with rows deleted, duplicated
  // and changed beside it, as Spider's published test suites lay them out.
  const suites = dir.file("suites");
  writeTestSuite(
    path.join(SPIDER_DB, "concert_singer", "concert_singer.sqlite"),
    path.join(suites, "concert_singer"),
    "concert_singer",
  );
  const gold = () =>
    write(
      "suite_gold.sql",
      [
        "SELECT count(*) FROM singer\tconcert_singer",
        "SELECT DISTINCT country FROM singer\tconcert_singer",
        "SELECT name FROM singer WHERE age > 40\tconcert_singer",
      ].join("\n") + "\n",
    );
  const pred = () =>
    write(
      "suite_pred.sql",
      [
        "SELECT 6", // right on the dev database only
        "SELECT country FROM singer", // right once DISTINCT is gone from both
        "SELECT name FROM singer WHERE age > 40; LIMIT 1", // the second statement is dropped
      ].join("\n") + "\n",
    );
  const run = (dbDir: string, ...more: string[]) =>
    runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      dbDir,
      "--score",
      "spider",
      ...more,
    ]);

  it("scores a folder of several databases a question by test-suite accuracy, and says so", () => {
    const out = dir.file("suite_run.json");
    const r = run(suites, "--json", out);
    const saved = JSON.parse(fs.readFileSync(out, "utf8")).scores[0];
    assert.equal(saved.variant, "test-suite accuracy (4 databases a question)");
    const at = r.stdout.split("\n").findIndex((l) => l.startsWith("spider"));
    assert.deepEqual(r.stdout.split("\n").slice(at, at + 4), [
      "spider, test-suite accuracy (4 databases a question): 66.7% over 3 questions (ours: 33.3%); 3 disagree:",
      "  0: spider FAIL, ours PASS: test suite: the official evaluator needs the same rows on all 4 databases of the question's folder, and finds different values on concert_singer_deleted.sqlite; ours checks the question's own database",
      "  1: spider PASS, ours FAIL: the official evaluator removes DISTINCT from both queries (also inside COUNT(DISTINCT ...)); with --keep-distinct (its --keep_distinct) it agrees with ours",
      '  2: spider PASS, ours FAIL: the official evaluator runs only the first statement of a prediction and drops the rest ("LIMIT 1")',
    ]);
  });

  it("--keep-distinct keeps DISTINCT and every statement, as the evaluator's --keep_distinct", () => {
    const r = run(SPIDER_DB, "--keep-distinct");
    assert.match(
      r.stdout,
      /^spider, DISTINCT kept \(--keep-distinct\): 33\.3% over 3 questions \(ours: 33\.3%\); 0 disagree$/m,
    );
  });

  it("--keep-distinct without --score spider is one line, exit 2", () => {
    const r = runCli([
      "run",
      gold(),
      "--predictions",
      pred(),
      "--db-dir",
      suites,
      "--keep-distinct",
    ]);
    assert.deepEqual([r.code, r.stderr], [
      2,
      "error: --keep-distinct is a flag of --score spider: pass --score spider too\n",
    ]);
  });
});

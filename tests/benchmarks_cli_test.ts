/**
 * `dbagenteval run` on the public benchmarks' own files: Spider's dev.json
 * and dev_gold.sql, BIRD's dev.json, their predictions files and a folder of
 * databases (--db-dir), with no conversion.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { runCli } from "./cli.ts";
import { makeDb, tempDir } from "./fixtures.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir("dbagenteval-bench-");
const dbs = dir.file("database");
const SPIDER_DB = path.resolve(import.meta.dirname!, "data/spider/database");

before(() => {
  // BIRD's layout: DIR/<db_id>/<db_id>.sqlite; and a flat DIR/<db_id>.sqlite.
  fs.mkdirSync(path.join(dbs, "schools"), { recursive: true });
  makeDb(
    path.join(dbs, "schools", "schools.sqlite"),
    `CREATE TABLE frpm (School TEXT, County TEXT, Enrollment INTEGER, FreeMeals INTEGER);
     INSERT INTO frpm VALUES ('Alpha', 'Alameda', 100, 40), ('Beta', 'Alameda', 200, 20),
       ('Gamma', 'Fresno', 50, 45);`,
  );
  makeDb(
    path.join(dbs, "shop.sqlite"),
    `CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT);
     INSERT INTO orders (status) VALUES ('open'), ('shipped'), ('open');`,
  );
});
after(() => dir.cleanup());

function write(name: string, text: string): string {
  const file = dir.file(name);
  fs.writeFileSync(file, text);
  return file;
}

describe("run on Spider's own files", () => {
  const dev = () =>
    write(
      "spider_dev.json",
      JSON.stringify([
        {
          db_id: "concert_singer",
          question: "How many singers do we have?",
          query: "SELECT count(*) FROM singer",
          query_toks: [],
          question_toks: [],
        },
        {
          db_id: "world_1",
          question: "How many countries are republics?",
          query: 'SELECT count(*) FROM country WHERE GovernmentForm = "Republic"',
          query_toks: [],
          question_toks: [],
        },
        {
          db_id: "concert_singer",
          question: "What are the names of the stadiums?",
          query: "SELECT name FROM stadium",
          query_toks: [],
          question_toks: [],
        },
      ]),
    );

  it("scores a predictions file aligned line by line: a wrong SQL is the agent's FAIL at execute", () => {
    const pred = write(
      "spider_pred.sql",
      // The third prediction names no column of the table: the agent's FAIL, not the run's ERROR.
      "SELECT count(*) FROM singer\nSELECT count(*) FROM country WHERE GovernmentForm = 'Republic'\tworld_1\nSELECT nam FROM stadium\n",
    );
    const r = runCli(["run", dev(), "--predictions", pred, "--db-dir", SPIDER_DB]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^PASS {2}0$/m);
    assert.match(r.stdout, /^PASS {2}1$/m);
    assert.match(r.stdout, /^FAIL {2}2\n {6}execute \/ no_error: no such column: nam$/m);
    assert.match(r.stdout, /2 of 3 passed \(67%\), 1 failed, 0 errors/);
  });

  it("reads dev_gold.sql (SQL<TAB>db_id) as the cases", () => {
    const gold = write(
      "dev_gold.sql",
      'SELECT count(*) FROM singer\tconcert_singer\n\nSELECT count(*) FROM country WHERE GovernmentForm = "Republic"\tworld_1\n',
    );
    const pred = write("gold_pred.sql", "SELECT count(*) FROM singer\nSELECT 1\n");
    const r = runCli(["run", gold, "--predictions", pred, "--db-dir", SPIDER_DB]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^PASS {2}0$/m);
    assert.match(r.stdout, /^FAIL {2}1$/m);
  });

  it("--strict-quotes refuses the gold's double-quoted strings: the case is an ERROR", () => {
    const pred = write("strict_pred.sql", "SELECT 1\nSELECT 1\nSELECT 1\n");
    const r = runCli([
      "run",
      dev(),
      "--predictions",
      pred,
      "--db-dir",
      SPIDER_DB,
      "--strict-quotes",
      "--case",
      "1",
    ]);
    assert.match(r.stdout, /^ERROR 1\n.*no such column: "Republic"/m);
  });

  it("a predictions file with another count of lines is one line, exit 2", () => {
    const pred = write("short_pred.sql", "SELECT 1\n");
    const r = runCli(["run", dev(), "--predictions", pred, "--db-dir", SPIDER_DB]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: ${pred}: 1 prediction(s) for 3 case(s); the predictions must be one per question, in the order of the cases file\n`,
    );
  });

  it("an unknown database name is one line naming the case and the close names, exit 2", () => {
    const cases = write(
      "typo.yaml",
      "- question: How many singers?\n  reference_sql: SELECT count(*) FROM singer\n  db: concert_singr\n",
    );
    const r = runCli([
      "run",
      cases,
      "--predictions",
      write("one.sql", "SELECT 1\n"),
      "--db-dir",
      SPIDER_DB,
    ]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: ${cases}:1 (case how-many-singers): --db-dir ${SPIDER_DB} has no database "concert_singr"; did you mean "concert_singer"?\n`,
    );
  });

  it("a case that names its database needs --db-dir", () => {
    const r = runCli([
      "run",
      dev(),
      "--predictions",
      write("p3.sql", "SELECT 1\nSELECT 1\nSELECT 1\n"),
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /\(case 0\) names its database \(db: concert_singer\); pass --db-dir DIR/,
    );
  });

  it("a mistake in dev.json names the file, line and JSON path", () => {
    const bad = write(
      "bad_dev.json",
      '[\n  {"db_id": "concert_singer", "question": "Q?", "query": "SELECT 1"},\n  {"db_id": "concert_singer", "question": 3, "query": "SELECT 1"}\n]\n',
    );
    const r = runCli([
      "run",
      bad,
      "--predictions",
      write("p4.sql", "SELECT 1\n"),
      "--db-dir",
      SPIDER_DB,
    ]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: ${bad}:3: [1].question: question must be text (a spider question)\n`,
    );
  });
});

describe("run on BIRD's own files", () => {
  const dev = () =>
    write(
      "bird_dev.json",
      JSON.stringify([
        {
          question_id: 0,
          db_id: "schools",
          question: "Which school in Alameda has the highest free meal rate?",
          evidence: "free meal rate = FreeMeals / Enrollment",
          SQL:
            "SELECT School FROM frpm WHERE County = 'Alameda' ORDER BY CAST(FreeMeals AS REAL) / Enrollment DESC LIMIT 1",
          difficulty: "simple",
        },
        {
          question_id: 1,
          db_id: "shop",
          question: "How many orders are open?",
          evidence: "",
          SQL: "SELECT count(*) FROM orders WHERE status = 'open'",
          difficulty: "moderate",
        },
      ]),
    );

  it("scores BIRD's predictions JSON", () => {
    const pred = write(
      "predict_dev.json",
      JSON.stringify({
        "0":
          "SELECT School FROM frpm WHERE County = 'Alameda' ORDER BY FreeMeals * 1.0 / Enrollment DESC LIMIT 1\t----- bird -----\tschools",
        "1": "SELECT count(*) FROM orders WHERE status = 'shipped'\t----- bird -----\tshop",
      }),
    );
    const r = runCli([
      "run",
      dev(),
      "--predictions",
      pred,
      "--db-dir",
      dbs,
      "--tags",
      "moderate,simple",
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^PASS {2}0$/m);
    assert.match(r.stdout, /^FAIL {2}1\n {6}execute \/ reference_rows/m);
  });

  it("takes BIRD's 0 for an unanswered question: a FAIL at generate, and says how many", () => {
    // As BIRD's own published predictions (its ChatGPT baseline's predict_dev.json) hold them.
    const pred = write(
      "predict_unanswered.json",
      JSON.stringify({
        "0": 0,
        "1": "SELECT count(*) FROM orders WHERE status = 'open'\t----- bird -----\tshop",
      }),
    );
    const r = runCli(["run", dev(), "--predictions", pred, "--db-dir", dbs]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stdout,
      `FAIL  0\n      generate / no_error: unanswered: ${pred}["0"] is 0, not SQL\nPASS  1\n\n` +
        "1 of 2 passed (50%), 1 failed, 0 errors\n  first failing stage generate: 1\n",
    );
    assert.equal(
      r.stderr,
      `${pred}: 1 of 2 predictions are not SQL (BIRD's 0 for a question the model did not answer): each of those cases is a FAIL at generate\n`,
    );
  });

  it("a prediction for another database names its key", () => {
    const pred = write(
      "swapped.json",
      JSON.stringify({
        "0": "SELECT 1\t----- bird -----\tshop",
        "1": "SELECT 1\t----- bird -----\tshop",
      }),
    );
    const r = runCli(["run", dev(), "--predictions", pred, "--db-dir", dbs]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: ${pred}["0"]: the prediction is for database "shop", and case 0 is on "schools"; are the predictions in the order of the cases file?\n`,
    );
  });

  it(
    "the evidence and the database name reach an --agent-cmd agent in its request's context",
    { skip: needs("python3") },
    () => {
      const agent = write(
        "echo_agent.py",
        `import json, sys
for line in sys.stdin:
    r = json.loads(line)
    c = r["context"]
    sys.stdout.write(json.dumps({"id": r["id"], "answer": c.get("db", "") + " | " + c.get("evidence", "-")}) + "\\n")
    sys.stdout.flush()
`,
      );
      const json = dir.file("bird_run.json");
      runCli(["run", dev(), "--agent-cmd", `python3 ${agent}`, "--db-dir", dbs, "--json", json]);
      const run = JSON.parse(fs.readFileSync(json, "utf8"));
      assert.deepEqual(
        run.cases.map((c: { answer: string }) => c.answer),
        ["schools | free meal rate = FreeMeals / Enrollment", "shop | -"],
      );
    },
  );
});

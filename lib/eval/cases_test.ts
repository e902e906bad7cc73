import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import process from "node:process";
import { tempDir } from "../../tests/fixtures.ts";
import { CasesFileError } from "../errors.ts";
import { acceptableResults, defineCase, loadCases, parseCases, slugify } from "./cases.ts";

const dir = tempDir();
after(() => dir.cleanup());

// The guide's cases file, as examples/tutorial/cases.yaml holds it.
const TUTORIAL = fs.readFileSync(
  new URL("../../examples/tutorial/cases.yaml", import.meta.url),
  "utf8",
);

describe("parseCases()", () => {
  it("parseCases() reads the tutorial's cases file with defaults filled in", () => {
    const cases = parseCases(TUTORIAL, "cases.yaml");
    assert.deepEqual(cases.map((c) => c.id), [
      "delivered-count",
      "delivered-amount",
      "delivered-count-fixed",
    ]);
    assert.deepEqual(cases[1], {
      id: "delivered-amount",
      question: "What is the total amount of delivered orders?",
      tags: ["easy", "money"],
      reference_sql:
        "SELECT SUM(amount) FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'",
      ordered: false,
      precision: 2,
    });
    assert.deepEqual(cases[2]?.expect, { rows: [{ total: 2 }] });
  });

  const same: [string, string, string][] = [
    ["reads .yml like .yaml", "c.yml", "- question: Q?\n  precision: 4\n"],
    ["reads a JSON list", "c.json", '[{"question": "Q?", "precision": 4}]'],
    ["reads JSON lines, skipping blank lines", "c.jsonl", '\n{"question": "Q?", "precision": 4}\n'],
  ];
  for (const [name, file, text] of same) {
    it(`parseCases() ${name}`, () => {
      assert.deepEqual(parseCases(text, file), [
        { id: "q", question: "Q?", tags: [], ordered: false, precision: 4 },
      ]);
    });
  }

  const errors: [string, string, string, string][] = [
    [
      "reports unknown fields in the documented words, on the key's line",
      "bad.yaml",
      "- expects:\n    rows: []\n  question: Q?\n",
      `bad.yaml:1: unknown field(s) ['expects']; did you mean "expect"? allowed: counterexample, db, evidence, expect, id, ordered, precision, question, reference_sql, strict_columns, tags, tenant`,
    ],
    [
      "suggests tenant for tenat, and lists tenant and counterexample as allowed",
      "bad.yaml",
      "- question: Q?\n  tenat: s1\n",
      `bad.yaml:2: unknown field(s) ['tenat']; did you mean "tenant"? allowed: counterexample, db, evidence, expect, id, ordered, precision, question, reference_sql, strict_columns, tags, tenant`,
    ],
    [
      "lists every unknown field and points at the first",
      "bad.yaml",
      "- question: Q?\n  tag: [a]\n  order: true\n",
      `bad.yaml:2: unknown field(s) ['tag', 'order']; did you mean "tags", "ordered"? allowed: counterexample, db, evidence, expect, id, ordered, precision, question, reference_sql, strict_columns, tags, tenant`,
    ],
    [
      "reports the line of the offending key in a later case",
      "c.yaml",
      "- question: A?\n- question: B?\n  precision: 2.5\n",
      "c.yaml:3: precision must be a whole number from 0 to 12",
    ],
    [
      "reports a missing question at the case's line",
      "c.yaml",
      "- question: A?\n- id: b\n  tags: [x]\n",
      "c.yaml:2: missing field 'question'; every case needs a question",
    ],
    [
      "refuses an empty question",
      "c.yaml",
      "- question: ''\n",
      "c.yaml:1: question must not be empty",
    ],
    [
      "refuses a question that is not text",
      "c.yaml",
      "- question: [a]\n",
      "c.yaml:1: question must be text",
    ],
    [
      "refuses ordered that is not a boolean",
      "c.yaml",
      "- question: Q\n  ordered: yes\n",
      "c.yaml:2: ordered must be true or false",
    ],
    [
      "refuses strict_columns that is not a boolean",
      "c.yaml",
      "- question: Q\n  strict_columns: 1\n",
      "c.yaml:2: strict_columns must be true or false",
    ],
    [
      "refuses tags that are not a list",
      "c.yaml",
      "- question: Q\n  tags: easy\n",
      "c.yaml:2: tags must be a list, e.g. [easy, money]",
    ],
    [
      "refuses expect that is not a mapping",
      "c.yaml",
      "- question: Q\n  expect: [1]\n",
      "c.yaml:2: expect must be a mapping, e.g. expect: {rows: [{total: 2}]}",
    ],
    [
      "names rows for a key of expect one typo from it (row), at the key's line",
      "c.yaml",
      "- question: Q\n  expect:\n    row: [{n: 1}]\n",
      `c.yaml:3: expect.row: did you mean "rows"? expect takes rows, db_change, db_no_change, db_unchanged, or a stage's name (route, plan, retrieve, generate, execute, answer, or the name your trace gives it)`,
    ],
    [
      "names the stage kind a key of expect misspells (exectue)",
      "c.json",
      '[{"question": "Q", "expect": {"exectue": 1}}]',
      `c.json:1: expect.exectue: did you mean "execute"? expect takes rows, db_change, db_no_change, db_unchanged, or a stage's name (route, plan, retrieve, generate, execute, answer, or the name your trace gives it)`,
    ],
    [
      "names db_change for db_chnage",
      "c.yaml",
      "- question: Q\n  expect:\n    db_chnage: {}\n",
      `c.yaml:3: expect.db_chnage: did you mean "db_change"? expect takes rows, db_change, db_no_change, db_unchanged, or a stage's name (route, plan, retrieve, generate, execute, answer, or the name your trace gives it)`,
    ],
    [
      "refuses rows that are not objects, at the row's line",
      "c.yaml",
      "- question: Q\n  expect:\n    rows:\n      - [1, 2]\n      - 3\n",
      "c.yaml:4: expect.rows must be a list of rows, like [{total: 2}], or a list of such lists",
    ],
    [
      "refuses duplicate ids at the second id's line",
      "c.yaml",
      "- id: a\n  question: A?\n- id: a\n  question: B?\n",
      'c.yaml:3: duplicate id "a" (first on line 1); ids must be unique',
    ],
    [
      "refuses a case that is not a mapping",
      "c.yaml",
      "- question: A?\n- just text\n",
      "c.yaml:2: a case must be a mapping with at least a question",
    ],
    [
      "refuses a top level that is not a list",
      "c.yaml",
      "question: A?\n",
      "c.yaml:1: expected a list of cases, each starting with - (a YAML list)",
    ],
    [
      "refuses an empty file, at line 1",
      "c.yaml",
      "",
      "c.yaml:1: no cases found; write a list of cases, each with a question",
    ],
    [
      "refuses a YAML file with only comments, at line 1",
      "c.yml",
      "# nothing yet\n\n",
      "c.yml:1: no cases found; write a list of cases, each with a question",
    ],
    [
      "refuses an empty JSON list, at line 1",
      "c.json",
      "[]\n",
      "c.json:1: no cases found; write a list of cases, each with a question",
    ],
    [
      "refuses an empty JSONL file, at line 1",
      "c.jsonl",
      "\n\n",
      "c.jsonl:1: no cases found; write a list of cases, each with a question",
    ],
    [
      "refuses an empty JSON file, at line 1",
      "c.json",
      "",
      "c.json:1: not valid JSON",
    ],
    [
      "reports a JSON list that never ends at its last line",
      "c.json",
      '[\n  {"question": "A?"},',
      "c.json:2: not valid JSON",
    ],
    [
      "refuses several YAML documents in the words of a cases file",
      "c.yaml",
      "- question: A?\n---\n- question: B?\n",
      "c.yaml:2: not valid YAML: the file has more than one document (a second ---); put all the cases in one list\n",
    ],
    [
      "reports YAML syntax errors with their line",
      "c.yaml",
      "- question: A?\n  question: B?\n",
      "c.yaml:2: not valid YAML: question appears twice in the same mapping",
    ],
    [
      "says to quote a question that holds ': ' (YAML reads it as a key)",
      "c.yaml",
      "- question: Sales: how many?\n",
      'c.yaml:1: not valid YAML: the value holds ": " (a colon and a space), which YAML reads as a key; put the value in quotes: question: "Sales: how many?"',
    ],
    [
      "says to quote a question that starts with a quoted word",
      "c.yaml",
      "- id: a\n  question: 'Alice' has orders?\n",
      `c.yaml:2: not valid YAML: a value that starts with a quote must end with it; quote all of it: question: "'Alice' has orders?"`,
    ],
    [
      "says to quote a value that starts with @",
      "c.yaml",
      "- question: '@home?'\n  id: @home\n",
      'c.yaml:2: not valid YAML: a value cannot start with @ unquoted; put it in quotes: id: "@home"',
    ],
    [
      "says to quote a value that starts with *",
      "c.yaml",
      "- question: *all orders\n",
      'c.yaml:1: not valid YAML: * at the start of a value is YAML syntax; put the value in quotes: question: "*all orders"',
    ],
    [
      "says YAML indents with spaces when a line starts with a tab",
      "c.yaml",
      "- question: A?\n\tid: b\n",
      "c.yaml:2: not valid YAML: YAML indents with spaces, not tabs; replace the tab",
    ],
    [
      "names the line where an unclosed quote on the last line opens, not one past the end",
      "c.yaml",
      '- question: One?\n  tags: [a]\n- question: "Two?\n',
      'c.yaml:3: not valid YAML: the " that starts this value is never closed; end the value with "',
    ],
    [
      "names the line of a single quote never closed",
      "c.yaml",
      "- question: One?\n- question: 'It''s two?\n- question: Three?\n",
      "c.yaml:2: not valid YAML: the ' that starts this value is never closed; end the value with '",
    ],
    [
      "reports an alias with no anchor at its line, not as an internal error",
      "c.yaml",
      "- question: One?\n- question: *nope\n",
      "c.yaml:2: not valid YAML: *nope refers to no anchor &nope above it; define the anchor first, or quote a value that starts with *",
    ],
    [
      "refuses an alias bomb",
      "c.yaml",
      `- question: Q?\n  tags: &a [x, x, x, x, x, x, x, x, x, x]\n${
        ["b", "c", "d", "e", "f", "g"].map((k, i) =>
          `  ${k}: &${k} [${Array(10).fill(`*${"abcdef"[i]}`).join(", ")}]`
        ).join("\n")
      }\n`,
      "c.yaml:3: not valid YAML: the aliases expand to too much (over 10000 nodes; an alias bomb?); write the values out",
    ],
    [
      "says a file nested 10,000 deep is too deep, with the limit",
      "c.json",
      `[{"question": "Q?", "expect": {"rows": ${"[".repeat(10_000)}${"]".repeat(10_000)}}}]`,
      "c.json:1: values are nested too deeply (more than 500 levels of [ and {); no case needs that many",
    ],
    [
      "names the line of a NaN in JSON, the same under every runtime",
      "c.json",
      '[\n  {"question": "One?"},\n  {"question": "Two?",\n   "expect": {"rows": [{"n": NaN}]}}\n]\n',
      "c.json:4: not valid JSON: unexpected NaN; JSON has no NaN or Infinity, write null or a number",
    ],
    [
      "names the line of a trailing comma in JSON",
      "c.json",
      '[\n  {"question": "One?",\n  }\n]\n',
      "c.json:2: not valid JSON: a comma before } (a trailing comma)",
    ],
    [
      "says an unclosed [ is a list",
      "c.yaml",
      "- question: A?\n  reference_sql: [SELECT 1\n",
      "c.yaml:2: not valid YAML: reference_sql: a value starting with [ is a YAML list and must be closed; if it is text, put it in quotes",
    ],
    [
      "reports unknown fields in JSON on the key's line",
      "c.json",
      '[\n  {"question": "A?"},\n  {"question": "B?",\n   "expects": {}}\n]',
      `c.json:4: unknown field(s) ['expects']; did you mean "expect"? allowed: counterexample, db, evidence, expect, id, ordered, precision, question, reference_sql, strict_columns, tags, tenant`,
    ],
    [
      "reports a JSONL mistake at the case's line",
      "c.jsonl",
      '{"question": "A?"}\n\n{"question": "B?", "precision": -1}\n',
      "c.jsonl:3: precision must be a whole number from 0 to 12",
    ],
    [
      "reports a JSONL syntax error at its line",
      "c.jsonl",
      '{"question": "A?"}\n{"question": \n',
      "c.jsonl:2: not valid JSON",
    ],
    [
      "reports a JSON syntax error with a line",
      "c.json",
      '[\n  {"question": "A?"},\n  {"question" "B?"}\n]',
      "c.json:3: not valid JSON",
    ],
    [
      "refuses other file types",
      "c.csv",
      "question\nA?\n",
      "c.csv: unsupported file type; a cases file ends in .yaml, .yml, .json or .jsonl",
    ],
  ];
  for (const [name, file, text, message] of errors) {
    it(`parseCases() ${name}`, () => {
      assert.throws(() => parseCases(text, file), (e: unknown) => {
        assert.ok(e instanceof CasesFileError);
        assert.ok(
          `${e.message}\n`.startsWith(message),
          `${e.message}\n  does not start with\n${message}`,
        );
        return true;
      });
    });
  }

  const ids: [string, string, string[]][] = [
    ["derives a missing id from the question", "- question: How many orders are délivered?\n", [
      "how-many-orders-are-delivered",
    ]],
    [
      "numbers derived ids that would collide",
      "- question: Total?\n- question: Total?\n- id: total-2\n  question: X\n",
      ["total", "total-3", "total-2"],
    ],
    ["reads a numeric id as text", "- id: 7\n  question: Q\n", ["7"]],
  ];
  for (const [name, text, expected] of ids) {
    it(`parseCases() ${name}`, () => {
      assert.deepEqual(parseCases(text, "c.yaml").map((c) => c.id), expected);
    });
  }

  it("parseCases() prints no warning beside the error for a key that is a list", () => {
    const warnings: unknown[] = [];
    const { emitWarning } = process;
    const { warn } = console;
    process.emitWarning = (w: unknown) => void warnings.push(w);
    console.warn = (w: unknown) => void warnings.push(w);
    try {
      assert.throws(
        () => parseCases("- ? [a]\n  : b\n  question: Q\n", "c.yaml"),
        { message: /^c\.yaml:1: unknown field\(s\) \['\[ a \]'\]/ },
      );
    } finally {
      process.emitWarning = emitWarning;
      console.warn = warn;
    }
    assert.deepEqual(warnings, []);
  });

  it("parseCases() takes strict_columns, and leaves it out when not given", () => {
    const [strict, plain] = parseCases(
      "- question: A\n  strict_columns: true\n- question: B\n",
      "c.yaml",
    );
    assert.equal(strict?.strict_columns, true);
    assert.equal(plain !== undefined && "strict_columns" in plain, false);
  });

  it("parseCases() keeps stage keys in expect", () => {
    const [c] = parseCases(
      "- question: Q\n  expect:\n    classify: data_question\n    retrieve: [status]\n",
      "c.yaml",
    );
    assert.deepEqual(c?.expect, { classify: "data_question", retrieve: ["status"] });
  });

  it("parseCases() keeps stage names of the user's own that are longer than a kind or far from one", () => {
    const names = ["router", "executor", "plans", "answers", "view", "rowcount", "sql"];
    const [c] = parseCases(
      JSON.stringify([{ question: "Q", expect: Object.fromEntries(names.map((n) => [n, 1])) }]),
      "c.json",
    );
    assert.deepEqual(Object.keys(c?.expect ?? {}), names);
  });
});

describe("loadCases()", () => {
  it("loadCases() reads a file from disk", async () => {
    const file = dir.file("cases.yaml");
    fs.writeFileSync(file, TUTORIAL);
    assert.equal((await loadCases(file)).length, 3);
  });

  it("loadCases() names a missing file", async () => {
    await assert.rejects(
      loadCases(dir.file("nope.yaml")),
      /nope\.yaml: no such file; check the path/,
    );
  });
});

describe("helpers", () => {
  const results: [string, unknown, unknown][] = [
    ["reads rows: [] as one empty result", { rows: [] }, [[]]],
    ["reads a list of rows as one result", { rows: [{ a: 1 }] }, [[{ a: 1 }]]],
    ["reads a list of lists as several results", { rows: [[{ a: 1 }], [{ a: 2 }]] }, [[{ a: 1 }], [{
      a: 2,
    }]]],
    ["gives undefined without rows", { view: "orders" }, undefined],
  ];
  for (const [name, expect, expected] of results) {
    it(`acceptableResults() ${name}`, () => {
      assert.deepEqual(acceptableResults(expect as never), expected);
    });
  }

  it("defineCase() fills defaults and validates", () => {
    assert.deepEqual(defineCase({ question: "Why?" }), {
      id: "why",
      question: "Why?",
      tags: [],
      ordered: false,
      precision: 2,
    });
    assert.throws(() => defineCase({ question: "Q", precision: -1 }), CasesFileError);
  });

  it("slugify() never returns an empty id", () => {
    assert.equal(slugify("???"), "case");
  });
});

describe("parseCases() and counterexample", () => {
  const cases: [string, string, boolean | undefined | RegExp][] = [
    ["takes counterexample: false", "- question: Q\n  counterexample: false\n", false],
    ["leaves counterexample out when not given", "- question: Q\n", undefined],
    [
      "refuses a counterexample that is not true or false",
      "- question: Q\n  counterexample: no-thanks\n",
      /counterexample must be true or false/,
    ],
  ];
  for (const [name, yaml, expected] of cases) {
    it(`parseCases() ${name}`, () => {
      if (expected instanceof RegExp) {
        assert.throws(() => parseCases(yaml, "cases.yaml"), expected);
      } else assert.equal(parseCases(yaml, "cases.yaml")[0]!.counterexample, expected);
    });
  }
});

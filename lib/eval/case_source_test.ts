import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "../../tests/fixtures.ts";
import { CasesFileError } from "../errors.ts";
import { caseLine, loadCases, parseCases } from "./cases.ts";
import { CaseSource, HAS_REFERENCE_SQL, NAMES_DB, WANTS_DB } from "./case_source.ts";
import { LineReader } from "./_line_reader.ts";

const dir = tempDir();
after(() => dir.cleanup());

let n = 0;
function write(text: string, ext = "jsonl"): string {
  const file = dir.file(`c${n++}.${ext}`);
  fs.writeFileSync(file, text);
  return file;
}

function all(source: CaseSource): number[] {
  return source.keys().map((k) => k.index);
}

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof CasesFileError) return e.message;
    throw e;
  }
  return "no error";
}

async function openError(file: string): Promise<string> {
  try {
    await CaseSource.open(file);
  } catch (e) {
    if (e instanceof CasesFileError) return e.message;
    throw e;
  }
  return "no error";
}

describe("LineReader", () => {
  const texts: [string, string][] = [
    ["an empty file", ""],
    ["lines ending in a newline", "a\nb\n"],
    ["a last line without one", "a\nb"],
    ["blank lines and CRLF", "\r\n\na\r\n\n"],
    ["a byte-order mark", "\ufeffa\nb"],
    ["characters of two, three and four bytes", "é€😀\nß\n漢字😀😀\n"],
  ];
  for (const [name, text] of texts) {
    for (const chunk of [1, 2, 3, 5, 1 << 20]) {
      it(`LineReader splits ${name} as split("\\n") does, read ${chunk} byte(s) at a time`, () => {
        const file = write(text, "txt");
        const reader = new LineReader(file, chunk);
        const got: [string, number][] = [];
        for (let line = reader.next(); line !== undefined; line = reader.next()) {
          got.push([line, reader.line]);
        }
        reader.close();
        const want = text.replace(/^\ufeff/, "").split("\n").map((l, i): [string, number] => [
          l,
          i + 1,
        ]);
        assert.deepEqual(got, want);
      });
    }
  }
});

describe("CaseSource.open() on a JSON lines file", () => {
  const same: [string, string][] = [
    ["one case", '{"question": "Q?", "precision": 4}\n'],
    [
      "blank lines, CRLF and a byte-order mark",
      '\ufeff\n{"question": "Q?"}\r\n\n{"question": "R?"}',
    ],
    [
      "ids from the questions, clear of the ids given further down",
      '{"question": "How many?"}\n{"question": "How many?"}\n{"id": "how-many-2", "question": "X"}\n',
    ],
    [
      "tags shared, empty and of an empty name",
      '{"question": "Q?", "tags": [""]}\n{"question": "R?", "tags": []}\n{"question": "S?", "tags": ["a", "b"]}\n{"question": "T?", "tags": ["a", "b"]}\n{"question": "U?"}\n',
    ],
    ["numeric ids and tags, as text", '{"id": 7, "question": "Q?", "tags": [1, "a"]}\n'],
    [
      "every field",
      '{"id": "a", "question": "Q?", "reference_sql": "SELECT 1", "expect": {"rows": [{"n": 1}]}, "tags": ["x"], "ordered": true, "precision": 3, "db": "d", "evidence": "e", "counterexample": false, "tenant": 5}\n',
    ],
  ];
  for (const [name, text] of same) {
    it(`CaseSource.open() reads ${name} as loadCases() does`, async () => {
      const file = write(text);
      const want = parseCases(text, file);
      const source = await CaseSource.open(file);
      assert.deepEqual(source.keys().map((k) => [k.id, k.tags]), want.map((c) => [c.id, c.tags]));
      const got = source.cases(all(source));
      assert.deepEqual(got, want);
      assert.deepEqual(got.map(caseLine), want.map(caseLine));
    });
  }

  const refused: [string, string][] = [
    ["an empty file", "\n\n"],
    ["a line that is not JSON", '{"question": "Q?"}\n{"question": \n'],
    ["an unknown field", '{"question": "Q?"}\n\n{"question": "R?", "qustion": 1}\n'],
    ["a case without a question", '{"question": "Q?"}\n{"id": "b"}\n'],
    [
      "a duplicate id",
      '{"id": "a", "question": "Q?"}\n{"question": "R"}\n{"id": "a", "question": "S"}\n',
    ],
    ["a bad selector", '{"question": "Q?", "expect": {"db_change": {"nope": 1}}}\n'],
  ];
  for (const [name, text] of refused) {
    it(`CaseSource.open() refuses ${name} as loadCases() does, at the same line`, async () => {
      const file = write(text);
      const want = errorOf(() => parseCases(text, file));
      assert.notEqual(want, "no error");
      assert.equal(await openError(file), want);
    });
  }

  it("CaseSource.open() names a missing file and a folder as loadCases() does", async () => {
    for (const file of [dir.file("missing.jsonl"), dir.file("folder.jsonl")]) {
      if (file.startsWith(dir.file("folder"))) fs.mkdirSync(file);
      let want = "";
      await loadCases(file).catch((e: Error) => want = e.message);
      assert.match(want, /no such file|a folder/);
      assert.equal(await openError(file), want);
    }
  });

  it("CaseSource flags the cases with reference_sql, database expectations or a db", async () => {
    const source = await CaseSource.open(write(
      [
        '{"question": "A", "reference_sql": "SELECT 1"}',
        '{"question": "B", "expect": {"db_unchanged": true}}',
        '{"question": "C", "expect": {"db_unchanged": false}, "db": "x"}',
      ].join("\n"),
    ));
    const flags = all(source).map((i) =>
      [HAS_REFERENCE_SQL, WANTS_DB, NAMES_DB].map((f) => source.has(i, f))
    );
    assert.deepEqual(flags, [[true, false, false], [false, true, false], [false, false, true]]);
  });

  it("CaseSource.feed() hands out the chosen cases in order, reading the file again", async () => {
    const text = Array.from({ length: 50 }, (_, i) => `{"id": "c${i}", "question": "Q${i}?"}\n`)
      .join("\n");
    const source = await CaseSource.open(write(text));
    const feed = source.feed([1, 7, 49]);
    assert.equal(feed.length, 3);
    const got = [feed.next(), feed.next(), feed.next(), feed.next()];
    assert.deepEqual(got.map((c) => c?.id), ["c1", "c7", "c49", undefined]);
    assert.deepEqual(got.slice(0, 3).map((c) => caseLine(c!)), [3, 15, 99]);
  });

  it("CaseSource.feed() stops at a case the file no longer has where it was", async () => {
    const file = write('{"id": "a", "question": "Q?"}\n{"id": "b", "question": "R?"}\n');
    const source = await CaseSource.open(file);
    fs.writeFileSync(file, '{"id": "a", "question": "Q?"}\n{"id": "x", "question": "R?"}\n');
    const feed = source.feed(all(source));
    assert.equal(feed.next()?.id, "a");
    assert.equal(
      errorOf(() => feed.next()),
      `${file}:2: the file changed during the run (case "b" was on this line); run again once it is written`,
    );
  });

  it("CaseSource.feed() stops at a case whose line changed, even with its id kept", async () => {
    const file = write('{"id": "a", "question": "Q?"}\n{"id": "b", "question": "R?"}\n');
    const source = await CaseSource.open(file);
    fs.writeFileSync(file, '{"id": "a", "question": "Q?"}\n{"id": "b", "question": "S?"}\n');
    const feed = source.feed([1]);
    assert.match(errorOf(() => feed.next()), /:2: the file changed during the run \(case "b"/);
  });

  it("CaseSource.open() holds a YAML file's cases and hands them out the same way", async () => {
    const text = "- question: How many?\n  tags: [a]\n- id: x\n  question: Q?\n";
    const file = write(text, "yaml");
    const source = await CaseSource.open(file);
    assert.deepEqual(source.keys().map((k) => [k.id, k.tags, k.index]), [
      ["how-many", ["a"], 0],
      ["x", [], 1],
    ]);
    assert.deepEqual(source.cases([1]), [parseCases(text, file)[1]]);
  });
});

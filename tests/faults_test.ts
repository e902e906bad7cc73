/**
 * The fault suite: what a hostile user can hand the CLI (special files,
 * corrupt databases, broken cases, selector and run files, misbehaving
 * agents) and what the CLI promises back (docs/guarantees.md): it ends,
 * within a time limit; bad input is exit 2 and one line on stderr that names
 * the file (and line or JSON path), with no stack trace; no input file,
 * folder or mtime changes; no temporary folder is left behind. Run against
 * cli.ts, or the compiled binary with DBAGENTEVAL_BIN (tests/cli.ts).
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { cliCommand, ROOT } from "./cli.ts";
import { makeDb, snapshotDir, tempDir } from "./fixtures.ts";
import { processesMatching } from "./process_table.ts";
import { needs, type SystemToolName } from "./system_packages.ts";

const dir = tempDir("dbagenteval-faults-");
after(() => dir.cleanup());

/** Generous: a hang is what it catches, not slowness (2 cores, shared). */
const TIME_LIMIT_MS = 90_000;

/** The folder a case builds its inputs in, and helpers to build them. */
interface Inputs {
  readonly path: string;
  file(name: string): string;
  write(name: string, text: string | Uint8Array): string;
  fifo(name: string): string;
  db(name: string, sql: string): string;
}

interface FaultCase {
  readonly name: string;
  /** Builds the inputs and returns the CLI's arguments (run in the inputs folder). */
  readonly args: (inputs: Inputs) => string[];
  /** The exit code (2 unless said). */
  readonly code?: number;
  /** What the one line on stderr must say (exit 2), or stdout (other codes). */
  readonly says: RegExp;
  /** With an exit code other than 2: what stderr must say (a warning). */
  readonly warns?: RegExp;
  /** Files the run must have written in the case's `../out` folder. */
  readonly writes?: readonly string[];
  /** The tools it needs beside the CLI (it is skipped, with one line, without them). */
  readonly needs?: readonly SystemToolName[];
}

const CASES = `- id: one
  question: One?
  expect:
    rows: [{n: 2}]
- id: two
  question: Two?
  expect:
    rows: [{n: 2}]
- id: three
  question: Three?
  expect:
    rows: [{n: 2}]
`;

/** A run of CASES against an agent whose body is `body` (the question is \`q\`). */
function runAgent(i: Inputs, body: string, extra: string[] = []): string[] {
  i.write("cases.yaml", CASES);
  i.write(
    "agent.ts",
    `import process from "node:process";\nexport const agent = (q: string) => {\n${body}\n};\n`,
  );
  return [
    "run",
    "cases.yaml",
    "--agent",
    "agent.ts:agent",
    "--json",
    "../out/run.json",
    "--md",
    "../out/report.md",
    ...extra,
  ];
}

const ANSWER = 'return { sql: "SELECT 2 AS n", rows: [{ n: 2 }], answer: "2" };';

const SQL = "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1,'a'),(2,'b');";

/** A 5,000-row table on 1 KiB pages, with its first interior page's first cell pointer past the page. */
function corruptInteriorPage(inputs: Inputs, name: string): string {
  const file = inputs.file(inputs.db(
    `${name}.src`,
    `PRAGMA page_size=1024; CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
     WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 5000)
     INSERT INTO t SELECT i, printf('%080d', i) FROM c;`,
  ));
  const bytes = fs.readFileSync(file);
  fs.rmSync(file);
  for (let page = 2; page * 1024 <= bytes.length; page++) {
    const at = (page - 1) * 1024;
    if (bytes[at] === 0x05) {
      bytes.writeUInt16BE(0xfff0, at + 12);
      return inputs.write(name, bytes);
    }
  }
  throw new Error("no interior page");
}

/** Four commits of 100 rows each, for a -wal of several frames. */
const WAL_COMMITS = `CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
${
  [1, 2, 3, 4].map(() =>
    `BEGIN; WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100)
     INSERT INTO t(v) SELECT printf('%050d', i) FROM c; COMMIT;`
  ).join("\n")
}`;

const cases: FaultCase[] = [
  // Special files: opening a FIFO for reading waits for a writer.
  {
    name: "db info on a FIFO",
    needs: ["mkfifo"],
    args: (i) => ["db", "info", i.fifo("p.db")],
    says: /"p\.db": it is a FIFO/,
  },
  {
    name: "db diff with a FIFO after",
    needs: ["mkfifo"],
    args: (i) => ["db", "diff", i.db("a.db", SQL), i.fifo("p.db")],
    says: /"p\.db": it is a FIFO/,
  },
  {
    name: "db diff with a FIFO before",
    needs: ["mkfifo"],
    args: (i) => ["db", "diff", i.fifo("p.db"), i.db("a.db", SQL)],
    says: /"p\.db": it is a FIFO/,
  },
  {
    name: "db info with a FIFO -wal beside a good database",
    needs: ["mkfifo"],
    args: (i) => {
      const db = i.db("a.db", SQL);
      i.fifo("a.db-wal");
      return ["db", "info", db];
    },
    says: /"a\.db": its ".*a\.db-wal" is a FIFO/,
  },
  {
    name: "db diff with a FIFO -journal beside a good database",
    needs: ["mkfifo"],
    args: (i) => {
      const args = ["db", "diff", i.db("a.db", SQL), i.db("b.db", SQL)];
      i.fifo("b.db-journal");
      return args;
    },
    says: /"b\.db": its ".*b\.db-journal" is a FIFO/,
  },
  {
    name: "db match on a FIFO diff document",
    needs: ["mkfifo"],
    args: (i) => ["db", "match", i.fifo("diff.json"), '{"rows": {"added": "t"}}'],
    says: /"diff\.json": it is a FIFO/,
  },
  {
    name: "db match with a FIFO selector file",
    needs: ["mkfifo"],
    args: (i) => ["db", "match", i.write("diff.json", "{}"), i.fifo("sel.yaml")],
    says: /"sel\.yaml".*it is a FIFO/,
  },
  // Damaged databases: named, never a stack.
  {
    name: "db diff of a corrupt interior page against a good file",
    args: (i) => ["db", "diff", corruptInteriorPage(i, "bad.db"), i.db("good.db", SQL)],
    says: /"bad\.db": the file is damaged/,
  },
  {
    name: "db diff of a good file against a corrupt interior page",
    args: (i) => ["db", "diff", i.db("good.db", SQL), corruptInteriorPage(i, "bad.db")],
    says: /"bad\.db": the file is damaged/,
  },
  {
    name: "db diff of a database whose -wal has a bad checksum in its fourth frame",
    args: (i) => {
      const good = i.file("good.db");
      makeDb(good, WAL_COMMITS, { journal: "wal-pending" });
      fs.copyFileSync(good, i.file("bad.db"));
      const wal = fs.readFileSync(`${good}-wal`);
      wal[32 + 3 * (24 + 4096) + 24 + 10]! ^= 0xff;
      fs.writeFileSync(i.file("bad.db-wal"), wal);
      return ["db", "diff", "good.db", "bad.db"];
    },
    code: 0,
    says: /^bad\.db: changed\n/,
    warns: /^warning: ".*bad\.db-wal" has \d+ frame\(s\) but frame 4 does not match/,
  },
  // Cases files: the line of the mistake, never past the end, no stack.
  {
    name: "validate a YAML cases file with an alias that has no anchor",
    args: (i) => ["validate", i.write("cases.yaml", "- question: One?\n- question: *nope\n")],
    says: /^error: cases\.yaml:2: not valid YAML: \*nope refers to no anchor/,
  },
  {
    name: "validate a YAML cases file that is an alias bomb",
    args: (i) => [
      "validate",
      i.write(
        "cases.yaml",
        `- question: Q?\n  tags: &a [x, x, x, x, x, x, x, x, x, x]\n${
          ["b", "c", "d", "e", "f", "g"].map((k, n) =>
            `  ${k}: &${k} [${Array(10).fill(`*${"abcdef"[n]}`).join(", ")}]`
          ).join("\n")
        }\n`,
      ),
    ],
    says: /^error: cases\.yaml:3: not valid YAML: the aliases expand to too much/,
  },
  {
    name: "validate a YAML cases file with 150 harmless aliases",
    args: (
      i,
    ) => [
      "validate",
      i.write("cases.yaml", `- question: &q Q?\n  tags: [${Array(150).fill("*q")}]\n`),
    ],
    code: 0,
    says: /1 case\(s\) OK/,
  },
  {
    name: "validate a YAML cases file with an unclosed quote on its last line",
    args: (
      i,
    ) => ["validate", i.write("cases.yaml", '- question: One?\n  tags: [a]\n- question: "Two?\n')],
    says: /^error: cases\.yaml:3: not valid YAML: the " that starts this value is never closed/,
  },
  {
    name: "validate a JSON cases file nested 10,000 deep",
    args: (i) => ["validate", i.write("cases.json", "[".repeat(10_000) + "]".repeat(10_000))],
    says: /^error: cases\.json:1: values are nested too deeply \(more than 500 levels/,
  },
  {
    name: "validate a JSON cases file with NaN on line 4",
    args: (i) => [
      "validate",
      i.write(
        "cases.json",
        '[\n  {"question": "One?"},\n  {"question": "Two?",\n   "tags": [NaN]}\n]\n',
      ),
    ],
    says: /^error: cases\.json:4: not valid JSON: unexpected NaN/,
  },
  // Run files.
  {
    name: "diff of a run file with a JSON mistake on line 2",
    args: (i) => {
      const bad = i.write("before.json", '{"format": "dbagenteval-run",\n "version": 1,,\n}');
      return ["diff", bad, bad];
    },
    says: /^error: before\.json: not a dbagenteval run file \(not valid JSON: line 2: /,
  },
  // Selectors.
  {
    name: "db diff --select with a catastrophic $regex",
    args: (i) => [
      "db",
      "diff",
      i.db("a.db", SQL),
      i.db("b.db", SQL.replace("'b'", "'c'")),
      "--select",
      '{"rows": {"changed": {"where": {"v": {"$regex": "(a+)+$"}}}}}',
    ],
    says: /rows\.changed\.where\.v\.\$regex: regular expression "\(a\+\)\+\$" repeats a group/,
  },
  {
    name: "db diff --select on a column named constructor that no table has",
    args: (i) => [
      "db",
      "diff",
      i.db("a.db", SQL),
      i.db("b.db", SQL.replace("'b'", "'c'")),
      "--select",
      '{"rows": {"changed": {"where": [{"constructor": "y"}]}}}',
    ],
    code: 1,
    says: /^no match\n/,
  },
  {
    name: "db diff of two files with a virtual table of a module this build lacks",
    args: (i) => {
      for (const [name, rows] of [["a.db", "(1)"], ["b.db", "(1), (2)"]] as const) {
        // A virtual table's schema row names a module this build lacks, as a
        // file written by a program with its own extension does.
        const file = i.file(i.db(
          name,
          `CREATE VIRTUAL TABLE v USING rtree(id, a, b); CREATE TABLE t(x);
           INSERT INTO t VALUES ${rows};`,
        ));
        const bytes = fs.readFileSync(file);
        bytes.write("USING zzzzz", bytes.indexOf("USING rtree"), "latin1");
        fs.writeFileSync(file, bytes);
      }
      return ["db", "diff", "a.db", "b.db"];
    },
    code: 0,
    says: /^b\.db: changed\n {2}t: changed; rows: 0 changed, 1 added, 0 removed\n/,
  },
  // Paths on the command line.
  {
    name: "db diff with an after that does not exist",
    args: (i) => ["db", "diff", i.db("a.db", SQL), "nosuch.db"],
    says: /"nosuch\.db": no such file or folder; .*--missing-as-empty/,
  },
  {
    name: "db diff with a symlink loop",
    args: (i) => {
      fs.symlinkSync("loop2", i.file("loop1"));
      fs.symlinkSync("loop1", i.file("loop2"));
      return ["db", "diff", i.db("a.db", SQL), "loop1"];
    },
    says: /"loop1": it is a loop of symbolic links/,
  },
  {
    name: "db diff --missing-as-empty with an after that does not exist",
    args: (i) => ["db", "diff", "--missing-as-empty", i.db("a.db", SQL), "nosuch.db"],
    code: 0,
    says: /^nosuch\.db: removed\n/,
  },
  {
    name: "run --agent-db with a malformed schema, before any case runs",
    args: (i) => {
      const db = i.db("agent.db", SQL);
      const bytes = fs.readFileSync(i.file(db));
      const at = bytes.indexOf("CREATE TABLE t");
      bytes.write("CREATE TABLX", at, "latin1");
      fs.writeFileSync(i.file(db), bytes);
      return runAgent(i, ANSWER, ["--agent-db", db]).filter((a) => !a.startsWith("../out"))
        .filter((a) => a !== "--json" && a !== "--md");
    },
    says: /"agent\.db": malformed database schema/,
  },
  {
    name: "run with a FIFO --agent-db",
    needs: ["mkfifo"],
    args: (i) => [...runAgent(i, ANSWER).slice(0, 4), "--agent-db", i.fifo("agent.db")],
    says: /"agent\.db": it is a FIFO/,
  },
  {
    name: "run with a FIFO cases file",
    needs: ["mkfifo"],
    args: (i) => ["run", i.fifo("cases.yaml"), "--agent", "agent.ts:agent"],
    says: /cases\.yaml.*it is a FIFO/,
  },
  {
    name: "validate a FIFO cases file",
    needs: ["mkfifo"],
    args: (i) => ["validate", i.fifo("cases.yaml")],
    says: /cases\.yaml.*it is a FIFO/,
  },
  {
    name: "diff with a FIFO run file",
    needs: ["mkfifo"],
    args: (i) => ["diff", i.fifo("before.json"), i.fifo("after.json")],
    says: /before\.json.*it is a FIFO/,
  },
  {
    name: "run --db on a FIFO",
    needs: ["mkfifo"],
    args: (i) => [...runAgent(i, ANSWER).slice(0, 4), "--db", i.fifo("ref.db")],
    says: /"ref\.db": it is a FIFO/,
  },
  // Agents: whatever one does, the run ends with a verdict per case, saved.
  {
    name: "run with an agent that loops without yielding in one case (--timeout 2)",
    args: (i) => runAgent(i, `if (q === "Two?") while (true) {}\n${ANSWER}`, ["--timeout", "2"]),
    code: 1,
    says:
      /^PASS {2}one\nERROR two\n {6}timed out after 2 s: the agent did not finish\nPASS {2}three\n/,
    writes: ["run.json", "report.md"],
  },
  {
    name: "run with an agent whose promise never settles (--timeout 1)",
    args: (i) => runAgent(i, "return new Promise(() => {});", ["--timeout", "1"]),
    code: 1,
    says: /^ERROR one\n.*timed out after 1 s[^]*0 of 3 passed/,
    writes: ["run.json", "report.md"],
  },
  {
    name: "run with an agent that calls process.exit(0) in one case",
    args: (i) => runAgent(i, `if (q === "Two?") process.exit(0);\n${ANSWER}`),
    code: 1,
    says: /^PASS {2}one\nERROR two\n {6}agent raised: the agent ended its process before answering/,
    writes: ["run.json", "report.md"],
  },
  {
    name: "run with an agent that calls process.chdir('/')",
    args: (i) => runAgent(i, `process.chdir("/");\n${ANSWER}`),
    code: 0,
    says: /^PASS {2}one\nPASS {2}two\nPASS {2}three\n/,
    writes: ["run.json", "report.md"],
  },
  {
    name: "run with an agent that leaves a rejection unhandled and throws in a timer",
    args: (i) =>
      runAgent(
        i,
        `Promise.reject(new Error("floating"));\nsetTimeout(() => { throw new Error("timer"); }, 1);\n${ANSWER}`,
      ),
    code: 0,
    says: /3 of 3 passed/,
    writes: ["run.json", "report.md"],
  },
  {
    name: "run with an agent that replaces JSON.stringify",
    args: (i) =>
      runAgent(i, `JSON.stringify = () => { throw new Error("no JSON for you"); };\n${ANSWER}`),
    code: 0,
    says: /3 of 3 passed/,
    writes: ["run.json", "report.md"],
  },
];

function inputsIn(folder: string): Inputs {
  fs.mkdirSync(folder, { recursive: true });
  const file = (name: string): string => path.join(folder, name);
  return {
    path: folder,
    file,
    write: (name, text) => {
      fs.writeFileSync(file(name), text);
      return name;
    },
    fifo: (name) => {
      const r = spawnSync("mkfifo", [file(name)], { encoding: "utf8" });
      if (r.status !== 0) {
        // r.stderr is undefined when mkfifo could not be started at all.
        throw new Error(
          `mkfifo ${file(name)}: ${r.error?.message ?? (r.stderr.trim() || `exit ${r.status}`)}`,
        );
      }
      return name;
    },
    db: (name, sql) => {
      makeDb(file(name), sql);
      return name;
    },
  };
}

/** Every entry under a folder, recursively, with its bytes and mtime. */
function snapshotTree(folder: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ".": snapshotDir(folder) };
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) out[entry.name] = snapshotTree(path.join(folder, entry.name));
  }
  return out;
}

describe("the fault suite: each fault ends with its one line, touching nothing", () => {
  cases.forEach((c, n) => {
    it(`${c.name}: exit ${c.code ?? 2}`, { skip: needs(...(c.needs ?? [])) }, () => {
      const inputs = inputsIn(dir.file(`case${n}/in`));
      const tmp = dir.file(`case${n}/tmp`);
      const out = dir.file(`case${n}/out`);
      fs.mkdirSync(tmp);
      fs.mkdirSync(out);
      const args = c.args(inputs);
      const before = snapshotTree(inputs.path);
      const [cmd, ...pre] = cliCommand();
      const r = spawnSync(cmd!, [...pre, ...args], {
        cwd: inputs.path,
        env: { ...process.env, NO_COLOR: "1", TMPDIR: tmp, TMP: tmp, TEMP: tmp },
        encoding: "utf8",
        input: "",
        timeout: TIME_LIMIT_MS,
        killSignal: "SIGKILL",
      });
      assert.equal(r.signal, null, `hung: killed after ${TIME_LIMIT_MS} ms`);
      const stderr = r.stderr ?? "";
      assert.equal(r.status, c.code ?? 2, `stdout: ${r.stdout}\nstderr: ${stderr}`);
      assert.doesNotMatch(stderr, /\n\s+at |internal error/, "a stack trace");
      if ((c.code ?? 2) === 2) {
        assert.equal(stderr.trimEnd().split("\n").length, 1, `not one line: ${stderr}`);
        assert.match(stderr, c.says);
      } else {
        assert.match(r.stdout, c.says);
        if (c.warns !== undefined) assert.match(stderr, c.warns);
      }
      assert.deepEqual(snapshotTree(inputs.path), before, "an input changed");
      assert.deepEqual(fs.readdirSync(tmp), [], "a temporary file or folder was left behind");
      assert.deepEqual(fs.readdirSync(out).sort(), [...c.writes ?? []].sort(), "the outputs");
      if (c.writes?.includes("run.json")) {
        const run = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
        assert.equal(run.cases.length, 3, "every case is in the run file");
      }
    });
  });
});

describe("run's default timeout", () => {
  it("is 300 seconds, so a run always ends with a verdict per case", () => {
    const [cmd, ...pre] = cliCommand();
    const r = spawnSync(cmd!, [...pre, "run", "--help"], {
      encoding: "utf8",
      timeout: TIME_LIMIT_MS,
    });
    assert.match(r.stdout.replace(/\s+/g, " "), /--timeout <seconds> .*\(default: 300\)/);
  });
});

describe("a run stopped by a signal", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`leaves no --agent-db copy and no agent host behind after ${signal}`, async () => {
      const inputs = inputsIn(dir.file(`signal-${signal}/in`));
      const tmp = dir.file(`signal-${signal}/tmp`);
      fs.mkdirSync(tmp);
      inputs.db("users.db", SQL);
      const args = runAgent(inputs, "return new Promise(() => {});", ["--agent-db", "users.db"])
        .slice(0, 4);
      fs.writeFileSync(
        inputs.file("cases.yaml"),
        "- question: One?\n  expect:\n    db_unchanged: true\n",
      );
      const [cmd, ...pre] = cliCommand();
      const child = spawn(cmd!, [...pre, ...args, "--agent-db", "users.db"], {
        cwd: inputs.path,
        env: { ...process.env, NO_COLOR: "1", TMPDIR: tmp, TMP: tmp, TEMP: tmp },
        stdio: "ignore",
      });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      // Wait (without a time assertion) until the case's copy exists.
      for (let i = 0; i < 600 && fs.readdirSync(tmp).length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.notDeepEqual(fs.readdirSync(tmp), [], "the case never started");
      child.kill(signal);
      await exited;
      assert.deepEqual(fs.readdirSync(tmp), [], "a temporary folder was left behind");
      // The host ends itself once its run is gone (it polls twice a second).
      let hosts = "";
      for (let i = 0; i < 50; i++) {
        // Only this test's hosts: they run in its inputs folder.
        hosts = processesMatching("__agent-host agent.ts:agent")
          .filter((p) => {
            try {
              return fs.realpathSync(`/proc/${p.pid}/cwd`) === fs.realpathSync(inputs.path);
            } catch {
              return false;
            }
          })
          .map((p) => p.args).join("\n");
        if (hosts === "") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(hosts, "", "an agent host outlived its run");
    });
  }
});

export { ROOT };

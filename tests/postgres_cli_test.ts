/**
 * End to end: the Chinook cases with reference SQL on SQLite, on PGlite and
 * on a PostgreSQL server get the same verdicts, case by case; a database
 * that cannot be reached stops the run before any case (exit 2, one line,
 * no password); a reference query that fails is an ERROR for its case.
 */
import { after, before, describe, it } from "node:test";
import { type ChildProcess, spawn } from "node:child_process";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "./fixtures.ts";
import { cliCommand, ROOT, runCli } from "./cli.ts";
import { NO_SERVER, POSTGRES_URL } from "./postgres_server.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir("dbagenteval-postgres-cli-");
after(() => dir.cleanup());

const AGENT = "examples/chinook/agent.ts:agent";
const SLOW = { timeout: 300_000 };
const PGLITE = "pglite:examples/chinook/Chinook_PostgreSql.sql";
const SQLITE_CASES = "examples/chinook/cases.yaml";
const POSTGRES_CASES = "examples/chinook/cases_postgres.yaml";
const RULES = ["--rules", "examples/chinook/rules.ts:RULES"];

interface RunFile {
  readonly cases: readonly {
    readonly id: string;
    readonly verdict: string;
    readonly checks: readonly { readonly name: string; readonly status: string }[];
  }[];
}

/** Each case's verdict and its checks' statuses, from the run file of a run. */
function readOutcomes(out: string): Record<string, string> {
  const run = JSON.parse(fs.readFileSync(out, "utf8")) as RunFile;
  return Object.fromEntries(run.cases.map((c) => [
    c.id,
    `${c.verdict}: ${c.checks.map((k) => `${k.name} ${k.status}`).sort().join(", ")}`,
  ]));
}

/** A run with the example's rules, its outcomes read by {@link readOutcomes}. */
function outcomes(cases: string, db: string, agent: readonly string[]): Record<string, string> {
  const out = dir.file(`run-${Math.random().toString(36).slice(2)}.json`);
  const r = runCli(["run", cases, ...agent, ...RULES, "--db", db, "--json", out]);
  assert.equal(r.code, 1, r.stderr); // the example agents fail some cases on purpose
  return readOutcomes(out);
}

/**
 * The same, started in the background: the PGlite runs each spend seconds
 * loading Chinook, so they run side by side.
 */
function outcomesLater(
  cases: string,
  db: string,
  agent: readonly string[],
): Promise<Record<string, string>> {
  const out = dir.file(`run-${Math.random().toString(36).slice(2)}.json`);
  const [cmd, ...pre] = cliCommand();
  const child = spawn(cmd!, [...pre, "run", cases, ...agent, ...RULES, "--db", db, "--json", out], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => stderr += chunk);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 1) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve(readOutcomes(out));
    });
  });
}

/** Starts the HTTP example agent on a free port; resolves with its URL once it listens. */
async function startHttpAgent(): Promise<{ url: string; server: ChildProcess }> {
  const server = spawn("python3", ["examples/http_agent/server.py", "--port", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.once("exit", (code) => reject(new Error(`the HTTP agent exited with ${code}`)));
  });
  return { url, server };
}

describe("run: the Chinook cases on SQLite, PGlite and a PostgreSQL server", () => {
  // The TypeScript agent with the reference SQL on SQLite is the yardstick.
  const onSqlite = outcomes(SQLITE_CASES, "examples/chinook/Chinook_Sqlite.sqlite", [
    "--agent",
    AGENT,
  ]);
  const python = needs("python3");
  const agents: [string, () => string[], string | false][] = [
    ["the TypeScript agent", () => ["--agent", AGENT], false],
    [
      "the Python agent over --agent-cmd",
      () => ["--agent-cmd", "python3 examples/python_agent/agent.py"],
      python,
    ],
    ["the HTTP agent over --agent-url", () => ["--agent-url", http!.url], python],
  ];
  const databases: [string, () => string, string | false][] = [
    ["PGlite", () => PGLITE, false],
    ["a PostgreSQL server", () => POSTGRES_URL!, NO_SERVER],
  ];
  let http: { url: string; server: ChildProcess } | undefined;
  const runs = new Map<string, Promise<Record<string, string>>>();
  before(async () => {
    if (python === false) http = await startHttpAgent();
    for (const [agentName, agent, agentSkip] of agents) {
      for (const [dbName, db, skip] of databases) {
        if (skip !== false || agentSkip !== false) continue;
        const run = outcomesLater(POSTGRES_CASES, db(), agent());
        run.catch(() => {}); // awaited by its test
        runs.set(`${agentName} on ${dbName}`, run);
      }
    }
  });
  after(() => {
    http?.server.kill();
  });

  it("gives some PASS and some FAIL on SQLite (the agent is wrong on purpose)", () => {
    const verdicts = new Set(Object.values(onSqlite).map((o) => o.split(":")[0]));
    assert.deepEqual([...verdicts].sort(), ["FAIL", "PASS"], JSON.stringify(onSqlite));
  });

  for (const [agentName, , agentSkip] of agents) {
    for (const [dbName, , dbSkip] of databases) {
      const skip = agentSkip !== false ? agentSkip : dbSkip;
      // PGlite starts and loads Chinook in 5 to 20 s on a busy machine.
      it(`gives ${agentName} the same verdicts and findings, case by case, on ${dbName}`, {
        ...SLOW,
        skip,
      }, async () => {
        assert.deepEqual(await runs.get(`${agentName} on ${dbName}`), onSqlite);
      });
    }
  }
});

describe("run --db: a database that cannot be used stops the run before any case", () => {
  const cases: [string, () => string, RegExp][] = [
    [
      "an unreachable server",
      () => "postgres://me:secret@127.0.0.1:1/chinook",
      /^error: Cannot connect to PostgreSQL postgres:\/\/me@127\.0\.0\.1:1\/chinook: connection refused/,
    ],
    [
      "a missing PGlite script",
      () => "pglite:nope.sql",
      /^error: --db pglite:nope\.sql: "nope\.sql" does not exist/,
    ],
  ];
  if (POSTGRES_URL !== undefined) {
    const url = new URL(POSTGRES_URL);
    cases.push(
      [
        "bad credentials",
        () => {
          const u = new URL(url.href);
          u.password = "secret";
          return u.href;
        },
        /authentication failed for user/,
      ],
      [
        "a missing database",
        () => {
          const u = new URL(url.href);
          u.pathname = "/nope";
          return u.href;
        },
        /database "nope" does not exist/,
      ],
    );
  }
  for (const [name, db, message] of cases) {
    it(`exits 2 for ${name}, with one line that hides the password`, () => {
      const r = runCli([
        "run",
        "examples/chinook/cases_postgres.yaml",
        "--agent",
        AGENT,
        "--db",
        db(),
      ]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "", "no case ran");
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, message);
      assert.ok(!r.stderr.includes("secret"), r.stderr);
      if (POSTGRES_URL !== undefined) {
        const password = new URL(POSTGRES_URL).password;
        assert.ok(password === "" || !r.stderr.includes(password), r.stderr);
      }
    });
  }
});

describe("run --db postgres://: a reference query that fails", { skip: NO_SERVER }, () => {
  it("is an ERROR for that case only, naming the database without the password", () => {
    const cases = dir.file("broken.yaml");
    fs.writeFileSync(
      cases,
      [
        "- id: broken",
        "  question: How many genres are there?",
        "  reference_sql: SELECT COUNT(*) FROM nope",
        "- id: fine",
        "  question: How many genres are there?",
        "  reference_sql: SELECT COUNT(*) FROM genre",
      ].join("\n"),
    );
    const out = dir.file("broken.json");
    const r = runCli(["run", cases, "--agent", AGENT, "--db", POSTGRES_URL!, "--json", out]);
    assert.equal(r.code, 1, r.stderr);
    const run = JSON.parse(fs.readFileSync(out, "utf8")) as {
      cases: { id: string; verdict: string; error: string | null }[];
    };
    const [broken, fine] = run.cases;
    assert.equal(broken?.verdict, "ERROR");
    assert.match(broken?.error ?? "", /relation "nope" does not exist \(SQLSTATE 42P01\)/);
    assert.ok(!(broken?.error ?? "").includes(new URL(POSTGRES_URL!).password));
    assert.equal(fine?.verdict, "PASS");
  });
});

describe("validate --db postgres://", { skip: NO_SERVER }, () => {
  it("runs every reference query on the server and names it without the password", () => {
    const r = runCli(["validate", POSTGRES_CASES, "--db", POSTGRES_URL!]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /14 case\(s\) OK; 14 reference queries run on postgres:\/\/[^:@]+@/);
    assert.ok(!r.stdout.includes(new URL(POSTGRES_URL!).password));
  });

  it("names each reference query that fails there, with its line (the SQLite cases)", () => {
    const r = runCli(["validate", SQLITE_CASES, "--db", POSTGRES_URL!]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: examples\/chinook\/cases\.yaml:20: case top-genres: reference_sql fails on postgres:\/\/\S+: column "genreid" specified in USING clause does not exist in left table \(SQLSTATE 42703\)$/m,
    );
  });
});

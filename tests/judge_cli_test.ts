/**
 * End to end: `dbagenteval run` with a judge, as `--judge file:fn` and as
 * `--judge-url` against a fake chat-completions server on 127.0.0.1. The
 * modules import nothing, so the same tests check the compiled binary.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import process from "node:process";
import { tempDir } from "./fixtures.ts";
import { cliCommand, type CliResult, runCli } from "./cli.ts";
import { type FakeServer, fakeServer, type Scripted } from "./_fake_chat_server.ts";

const dir = tempDir("dbagenteval-judge-cli-");
const servers: FakeServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  dir.cleanup();
});

fs.writeFileSync(
  dir.file("shop.js"),
  `
export function agent(question) {
  return { sql: "SELECT 2000 AS total", rows: [{ total: 2000 }], answer: "The delivered orders add up to 2000." };
}
export function runSql(sql) {
  return [{ "SUM(amount)": 2000 }];
}
// Tells the three prompts apart by what only each of them asks.
export function judge(prompt) {
  if (prompt.includes("<reference_sql>")) return "FAIL\\nThe reference says 2000 but the answer means another store.";
  if (prompt.includes("supported by these rows")) return "**PASS**\\nThe rows say 2000.";
  return '{"verdict": "pass", "reason": "It gives the total."}';
}
export async function asyncJudge(prompt) {
  return "PASS\\nfine";
}
export function throwingJudge() {
  throw new Error("my model is down");
}
// Says how many of its calls were in flight when it was called.
let inflight = 0;
export async function slowJudge(prompt) {
  const seen = ++inflight;
  await new Promise((resolve) => setTimeout(resolve, 100));
  inflight--;
  return "PASS\\nseen " + seen + " at once";
}
`,
);
fs.writeFileSync(
  dir.file("cases.yaml"),
  `- id: delivered-amount
  question: What is the total amount of delivered orders?
  reference_sql: SELECT SUM(amount) FROM orders WHERE status = 'DELIVERED'
`,
);

const BASE = ["run", "cases.yaml", "--agent", "shop.js:agent", "--execute", "shop.js:runSql"];

interface SavedCheck {
  readonly stage: string;
  readonly name: string;
  readonly status: string;
  readonly detail: string;
}

function judgeChecksIn(file: string): [string, string, string, string][] {
  const saved = JSON.parse(fs.readFileSync(dir.file(file), "utf8"));
  const checks: SavedCheck[] = saved.cases[0].checks;
  return checks
    .filter((c) => ["reference_answer", "faithful", "relevant"].includes(c.name))
    .map((c) => [c.stage, c.name, c.status, c.detail]);
}

/** Runs the CLI without blocking, so the fake server in this process can answer it. */
function runCliAsync(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const [cmd, ...pre] = cliCommand();
  const clean = { ...process.env };
  delete clean["DBAGENTEVAL_JUDGE_API_KEY"];
  delete clean["OPENAI_API_KEY"];
  const child = spawn(cmd!, [...pre, ...args], {
    cwd: dir.path,
    env: { ...clean, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => stdout += chunk.toString("utf8"));
  child.stderr.on("data", (chunk: Buffer) => stderr += chunk.toString("utf8"));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function serve(script: Scripted[]): Promise<FakeServer> {
  const server = await fakeServer(script);
  servers.push(server);
  return server;
}

describe("dbagenteval run --judge", () => {
  it("adds the three judge checks beside the others, in the output, --json and --md", () => {
    const r = runCli(
      [...BASE, "--judge", "shop.js:judge", "--json", "out.json", "--md", "out.md"],
      {
        cwd: dir.path,
      },
    );
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /FAIL {2}delivered-amount\n {6}answer \/ reference_answer: The reference says 2000 but the answer means another store\./,
    );
    assert.deepEqual(judgeChecksIn("out.json"), [
      [
        "answer",
        "reference_answer",
        "FAIL",
        "The reference says 2000 but the answer means another store.",
      ],
      ["answer", "faithful", "PASS", "The rows say 2000."],
      ["answer", "relevant", "PASS", "It gives the total."],
    ]);
    // The documented run output ends with the totals and first failing stages:
    // the judge calls are counted in the run file and the report instead.
    assert.doesNotMatch(r.stdout, /judge calls/);
    assert.match(r.stdout, /first failing stage answer: 1\n$/);
    const saved = JSON.parse(fs.readFileSync(dir.file("out.json"), "utf8"));
    assert.equal(saved.judge_calls, 3);
    assert.ok(saved.cases[0].checks.some((c: SavedCheck) => c.name === "reference_rows"));
    assert.match(fs.readFileSync(dir.file("out.md"), "utf8"), /reference_answer/);
  });

  it("prints the number of judge calls on stderr with --verbose, and nowhere on stdout", () => {
    const r = runCli([...BASE, "--judge", "shop.js:judge", "--verbose"], { cwd: dir.path });
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /judge calls/);
    assert.match(r.stderr, /^judge calls: 3$/m);
  });

  it("prints no judge calls with --verbose and no judge", () => {
    const r = runCli([...BASE, "--verbose"], { cwd: dir.path });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /judge calls/);
  });

  for (const [limit, most] of [["1", 1], ["3", 3]] as const) {
    it(`keeps at most ${limit} judge call(s) in flight with --judge-concurrency ${limit}`, () => {
      const file = `limit${limit}.json`;
      const r = runCli(
        [...BASE, "--judge", "shop.js:slowJudge", "--judge-concurrency", limit, "--json", file],
        { cwd: dir.path },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const seen = judgeChecksIn(file).map((c) => Number(/seen (\d+)/.exec(c[3])?.[1]));
      assert.equal(Math.max(...seen), most);
    });
  }

  it("accepts an asynchronous judge", () => {
    const r = runCli([...BASE, "--judge", "shop.js:asyncJudge", "--json", "async.json"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(judgeChecksIn("async.json").map((c) => c[2]), ["PASS", "PASS", "PASS"]);
  });

  it("turns a judge that throws into ERROR for the judge checks only", () => {
    const r = runCli([...BASE, "--judge", "shop.js:throwingJudge", "--json", "throws.json"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 1);
    assert.deepEqual(judgeChecksIn("throws.json").map((c) => [c[2], c[3]]), [
      ["ERROR", "judge failed: my model is down"],
      ["ERROR", "judge failed: my model is down"],
      ["ERROR", "judge failed: my model is down"],
    ]);
    const saved = JSON.parse(fs.readFileSync(dir.file("throws.json"), "utf8"));
    const others = saved.cases[0].checks.filter((c: SavedCheck) => c.status !== "ERROR");
    assert.ok(others.some((c: SavedCheck) => c.name === "reference_rows" && c.status === "PASS"));
  });
});

describe("dbagenteval run --judge-url", () => {
  it("asks the endpoint once per judge check, with --judge-model and DBAGENTEVAL_JUDGE_API_KEY", async () => {
    const server = await serve([{ reply: "PASS\nIt matches." }]);
    const r = await runCliAsync(
      [...BASE, "--judge-url", server.url, "--judge-model", "judge-1", "--json", "url.json"],
      { DBAGENTEVAL_JUDGE_API_KEY: "sk-dbagenteval", OPENAI_API_KEY: "sk-openai" },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(server.requests.length, 3);
    for (const seen of server.requests) {
      assert.equal(seen.headers.authorization, "Bearer sk-dbagenteval");
      assert.equal(seen.body["model"], "judge-1");
      assert.equal(seen.body["temperature"], 0);
    }
    assert.deepEqual(judgeChecksIn("url.json").map((c) => [c[1], c[2], c[3]]), [
      ["reference_answer", "PASS", "It matches."],
      ["faithful", "PASS", "It matches."],
      ["relevant", "PASS", "It matches."],
    ]);
  });

  for (
    const [name, env] of [
      ["falls back to OPENAI_API_KEY", { OPENAI_API_KEY: "sk-openai" }],
      [
        "falls back to OPENAI_API_KEY when DBAGENTEVAL_JUDGE_API_KEY is empty",
        { DBAGENTEVAL_JUDGE_API_KEY: "", OPENAI_API_KEY: "sk-openai" },
      ],
    ] as const
  ) {
    it(name, async () => {
      const server = await serve([{ reply: "PASS" }]);
      const r = await runCliAsync(
        [...BASE, "--judge-url", server.url, "--judge-model", "judge-1"],
        env,
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(server.requests[0]!.headers.authorization, "Bearer sk-openai");
    });
  }

  it("reports a refused key as one clear line, asking the endpoint only once", async () => {
    const server = await serve([{
      status: 401,
      body: '{"error":{"message":"Incorrect API key"}}',
    }]);
    const r = await runCliAsync(
      [...BASE, "--judge-url", server.url, "--judge-model", "judge-1", "--json", "401.json"],
      { DBAGENTEVAL_JUDGE_API_KEY: "sk-wrong" },
    );
    assert.equal(r.code, 1, r.stderr);
    assert.equal(server.requests.length, 1);
    assert.match(r.stdout, /refused the API key \(401 Unauthorized: Incorrect API key\)/);
    const details = judgeChecksIn("401.json").map((c) => c[3]);
    assert.equal(new Set(details).size, 1, "every judge check shows the same line");
  });

  it("checks once at the start that --judge-url accepts connections: refused is exit 2", async () => {
    const server = await serve([{ reply: "PASS" }]);
    await server.close();
    const r = runCli([...BASE, "--judge-url", server.url, "--judge-model", "m"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^error: --judge-url http:\/\/127\.0\.0\.1:\d+\S*: cannot connect to http:\/\/127\.0\.0\.1:\d+ \(.*\); check that the server is running and that the URL \(host and port\) is right\n$/,
    );
  });

  it("refuses a --judge-url that is not a URL, exit 2", () => {
    const r = runCli([...BASE, "--judge-url", "localhost:11434", "--judge-model", "m"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: Invalid judge URL "localhost:11434"/);
  });
});

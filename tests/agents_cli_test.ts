/**
 * End to end: agents in another language, as a user runs them. The Python
 * example over --agent-cmd and the HTTP example over --agent-url must give
 * the same verdicts, case by case, as the TypeScript Chinook agent; agent
 * faults end as an ERROR for the case or exit 2 at start; no agent process
 * outlives the run, also when the harness is stopped with SIGTERM.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { tempDir } from "./fixtures.ts";
import { cliCommand, ROOT, runCli } from "./cli.ts";
import { leftBehind } from "./process_table.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir("dbagenteval-agents-cli-");
after(() => dir.cleanup());

const CHINOOK = [
  "run",
  "examples/chinook/cases.yaml",
  "--db",
  "examples/chinook/Chinook_Sqlite.sqlite",
  "--rules",
  "examples/chinook/rules.ts:RULES",
];
const PYTHON_AGENT = "python3 examples/python_agent/agent.py";
/** Each test runs the CLI a few times: minutes on a loaded machine, past Bun's 5 s default. */
const SLOW = { timeout: 300_000 };

/** Starts the HTTP example on a free port; resolves with its URL once it listens. */
async function startHttpAgent(token: string): Promise<{ url: string; server: ChildProcess }> {
  const server = spawn("python3", [
    "examples/http_agent/server.py",
    "--port",
    "0",
    "--token",
    token,
  ], {
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

describe("run with an agent in another language", { skip: needs("python3") }, () => {
  const typescript = runCli([...CHINOOK, "--agent", "examples/chinook/agent.ts:agent"]);

  it("the TypeScript agent's run is the reference (some cases fail on purpose)", () => {
    assert.equal(typescript.code, 1, typescript.stderr);
    assert.match(typescript.stdout, /^FAIL {2}canada-or-usa$/m);
  });

  it("the Python agent over --agent-cmd gets the same verdicts and findings", SLOW, async () => {
    const python = runCli([...CHINOOK, "--agent-cmd", PYTHON_AGENT, "--concurrency", "3"]);
    assert.equal(python.stderr, "");
    assert.equal(python.code, typescript.code);
    assert.equal(python.stdout, typescript.stdout);
    assert.deepEqual(await leftBehind("examples/python_agent/agent.py"), []);
  });

  it(
    "the HTTP agent over --agent-url gets the same verdicts, with headers from flags or the environment",
    SLOW,
    async () => {
      const { url, server } = await startHttpAgent("s3cret");
      try {
        const flag = runCli([
          ...CHINOOK,
          "--agent-url",
          url,
          "--agent-header",
          "Authorization: Bearer s3cret",
        ]);
        assert.equal(flag.stdout, typescript.stdout, flag.stderr);
        const env = runCli([...CHINOOK, "--agent-url", url], {
          env: { DBAGENTEVAL_AGENT_HEADERS: "Authorization: Bearer s3cret" },
        });
        assert.equal(env.stdout, typescript.stdout, env.stderr);
        const none = runCli([...CHINOOK, "--agent-url", url]);
        assert.equal(none.code, 1);
        assert.match(none.stdout, /^ERROR genres\n.*answered 401 Unauthorized: .*bearer token/m);
      } finally {
        server.kill();
      }
    },
  );
});

describe("run --agent-cmd with a faulty agent", { skip: needs("python3") }, () => {
  const agent = path.join(dir.path, "faulty.py");
  fs.writeFileSync(
    agent,
    `import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    q = request["question"]
    print("working on " + q, file=sys.stderr, flush=True)
    if q == "exit": sys.exit(4)
    if q == "garbage": print("not json", flush=True); continue
    if q == "wrong id": print(json.dumps({"id": "x", "answer": "a"}), flush=True); continue
    if q == "hang": time.sleep(300)
    if q == "huge": sys.stdout.write("x" * (17 * 1024 * 1024) + "\\n"); sys.stdout.flush(); continue
    print(json.dumps({"id": request["id"], "answer": "fine"}), flush=True)
`,
  );
  const cases = path.join(dir.path, "cases.yaml");
  const questions = ["exit", "garbage", "wrong id", "hang", "huge"];
  fs.writeFileSync(
    cases,
    questions.flatMap((q, i) => [
      `- {id: fault-${i}, question: ${q}}`,
      `- {id: after-${i}, question: fine}`,
    ]).join("\n"),
  );

  it(
    "makes each fault an ERROR with its reason and stderr, runs the rest, leaves no process",
    SLOW,
    async () => {
      const r = runCli([
        "run",
        cases,
        "--agent-cmd",
        `python3 ${agent}`,
        "--timeout",
        "5",
        "--concurrency",
        "2",
      ]);
      assert.equal(r.code, 1, r.stderr);
      const expected: [string, RegExp][] = [
        ["exit", /exited with code 4\n\s+last lines of its stderr:\n\s+working on exit/],
        ["garbage", /not JSON: "not json"/],
        ["wrong id", /answered case "x" when asked case "fault-2"/],
        ["hang", /timed out after 5 s: the agent did not finish/],
        ["huge", /a line longer than 16 MiB/],
      ];
      for (const [i, [name, message]] of expected.entries()) {
        const block = r.stdout.split(/\n(?=\S)/).find((b) => b.startsWith(`ERROR fault-${i}\n`));
        assert.ok(block !== undefined, `${name}: ${r.stdout}`);
        assert.match(block, message, name);
        assert.match(r.stdout, new RegExp(`^PASS  after-${i}$`, "m"), `the case after ${name}`);
      }
      assert.deepEqual(await leftBehind(agent), []);
    },
  );

  const atStart: [string, string, RegExp][] = [
    [
      "a program that is not found",
      "no-such-agent-program x",
      /no-such-agent-program was not found/,
    ],
    ["a file that is not executable", agent, /cannot be run \(permission denied/],
    ["shell syntax without a shell", `python3 ${agent} | tee log`, /shell syntax.*sh -c/],
  ];
  for (const [name, command, message] of atStart) {
    it(`exits 2 at start for ${name}`, SLOW, () => {
      const r = runCli(["run", cases, "--agent-cmd", command]);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    });
  }

  it("exits 2 when no agent or two agents are given", SLOW, () => {
    const none = runCli(["run", cases]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--agent-cmd/);
    const two = runCli(["run", cases, "--agent-cmd", "python3 a.py", "--agent-url", "http://x/"]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /not several/);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops every agent process when the harness gets ${signal}`, SLOW, async () => {
      const started = path.join(dir.path, `started-${signal}`);
      const sleeper = path.join(dir.path, `sleeper-${signal}.py`);
      fs.writeFileSync(
        sleeper,
        `import sys, time\nopen(${
          JSON.stringify(started)
        }, "a").write("x")\nfor line in sys.stdin:\n    time.sleep(300)\n`,
      );
      const [cmd, ...pre] = cliCommand();
      const harness = spawn(cmd!, [
        ...pre,
        "run",
        cases,
        "--agent-cmd",
        `python3 ${sleeper}`,
        "--concurrency",
        "2",
      ], {
        cwd: ROOT,
        stdio: "ignore",
      });
      const exited = new Promise<number | null>((resolve) =>
        harness.once("exit", (code) => resolve(code))
      );
      for (
        let i = 0;
        i < 400 && (fs.statSync(started, { throwIfNoEntry: false })?.size ?? 0) < 2;
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(fs.readFileSync(started, "utf8"), "xx", "both workers started");
      harness.kill(signal);
      await exited;
      assert.deepEqual(await leftBehind(sleeper), []);
    });
  }
});

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { leftBehind } from "../../tests/process_table.ts";
import { defineCase } from "../eval/cases.ts";
import { runSuite } from "../eval/suite.ts";
import { UsageError } from "../errors.ts";
import { commandAgent } from "./command_agent.ts";
import { needs } from "../../tests/system_packages.ts";

const dir = tempDir("dbagenteval-command-agent-");
/** Real processes: seconds on a loaded machine, past Bun's 5 s default per test. */
const SLOW = { timeout: 120_000 };
after(() => dir.cleanup());

/** Writes a Python agent into the temp folder; its path marks its processes. */
function script(name: string, body: string): string {
  const file = path.join(dir.path, name);
  fs.writeFileSync(file, `import json, os, subprocess, sys, time\n${body}\n`);
  return file;
}

// Misbehaves on the case named by the question; answers "ok" to the rest.
const FAULTY = script(
  "faulty.py",
  `
for line in sys.stdin:
    request = json.loads(line)
    q = request["question"]
    print("thinking about " + q, file=sys.stderr, flush=True)
    if q == "exit":
        print("Traceback: boom", file=sys.stderr, flush=True)
        sys.exit(3)
    elif q == "garbage":
        print("Loading model...", flush=True)
        continue
    elif q == "wrong id":
        print(json.dumps({"id": "someone-else", "answer": "x"}), flush=True)
        continue
    elif q == "huge":
        sys.stdout.write("[" + "1," * 5000 + "1]\\n")
        sys.stdout.flush()
        continue
    elif q == "hang":
        # a grandchild in the same process group must go too
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[0]])
        time.sleep(300)
    elif q == "bad field":
        print(json.dumps({"id": request["id"], "rows": [{"n": 1}, 7]}), flush=True)
        continue
    elif q == "unknown field":
        print(json.dumps({"id": request["id"], "anwser": "typo"}), flush=True)
        continue
    elif q == "nan":
        print(json.dumps({"id": request["id"], "rows": [{"n": float("nan")}]}), flush=True)
        continue
    elif q == "tuples":
        print(json.dumps({"id": request["id"], "rows": [(1, 2)]}), flush=True)
        continue
    elif q == "all null":
        print(json.dumps({"id": request["id"], "sql": None, "rows": None, "answer": None}), flush=True)
        continue
    reply = {"id": request["id"], "answer": json.dumps(request["context"], sort_keys=True)}
    print(json.dumps(reply), flush=True)
`,
);

describe("commandAgent()", { skip: needs("python3") }, () => {
  it("sends each case's id, question and tags, and reads the replies", SLOW, async () => {
    const agent = await commandAgent({ command: ["python3", FAULTY], workers: 2 });
    try {
      const cases = [
        defineCase({ id: "a", question: "first", tags: ["x", "y"] }),
        defineCase({ id: "b", question: "second" }),
        defineCase({ id: "c", question: "third" }),
      ];
      const result = await runSuite(cases, agent, { concurrency: 2 });
      assert.deepEqual(result.cases.map((c) => c.verdict), ["PASS", "PASS", "PASS"]);
      const answer = result.cases[0]!.scorecard.trace?.lastOf("answer")?.output;
      assert.equal(answer, '{"tags": ["x", "y"]}');
      assert.equal(result.cases[2]!.scorecard.trace?.lastOf("answer")?.output, '{"tags": []}');
    } finally {
      await agent.close();
    }
    assert.deepEqual(await leftBehind(FAULTY), []);
  });

  it(
    "makes each fault an ERROR for its case, restarts the worker, and leaves no process",
    SLOW,
    async () => {
      const agent = await commandAgent({
        command: ["python3", FAULTY],
        workers: 1,
        maxLineBytes: 1000,
      });
      const faults: [string, RegExp][] = [
        ["exit", /the agent exited with code 3[^]*last lines of its stderr:[^]*Traceback: boom/],
        ["garbage", /a line that is not JSON: "Loading model\.\.\."[^]*thinking about garbage/],
        ["wrong id", /answered case "someone-else" when asked case "wrong-id"/],
        ["huge", /a line longer than 1000 bytes[^]*thinking about huge/],
        ["hang", /timed out after 4 s: the agent did not finish[^]*thinking about hang/],
        ["bad field", /reply\.rows: expected a list of objects/],
        ["unknown field", /reply\.anwser: unknown field/],
        ["nan", /reply holds NaN, which is not JSON \(Python's json\.dumps .*send null instead/],
        ["tuples", /^reply\.rows\[0\] is a list of values and the reply has no "columns"/],
        ["all null", /^the agent's reply has no sql, rows, answer or error .*in "rows"/],
      ];
      try {
        // Each fault is followed by a good case on the same (only) worker.
        const cases = faults.flatMap(([question]) => [
          defineCase({ question }),
          defineCase({ id: `after-${question.replace(" ", "-")}`, question: "fine" }),
        ]);
        const result = await runSuite(cases, agent, { concurrency: 1, timeoutMs: 4000 });
        for (const [i, [question, message]] of faults.entries()) {
          const fault = result.cases[2 * i]!;
          assert.equal(fault.verdict, "ERROR", question);
          assert.match(fault.error ?? "", message, question);
          assert.equal(result.cases[2 * i + 1]!.verdict, "PASS", `the case after ${question}`);
        }
      } finally {
        await agent.close();
      }
      assert.deepEqual(await leftBehind(FAULTY), []);
    },
  );

  it("kills an agent that ignores the end of its input when it is closed", SLOW, async () => {
    const stubborn = script(
      "stubborn.py",
      `
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    print(json.dumps({"id": json.loads(line)["id"], "answer": "ok"}), flush=True)
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[0]])
time.sleep(300)
`,
    );
    const agent = await commandAgent({ command: ["python3", stubborn] });
    await runSuite([defineCase({ question: "q" })], agent);
    await agent.close();
    assert.deepEqual(await leftBehind(stubborn), []);
  });

  it("gives each case its own database copy as context.db_path (--agent-db)", SLOW, async () => {
    const db = makeDb(
      path.join(dir.path, "users.db"),
      "CREATE TABLE users (id INTEGER PRIMARY KEY, role TEXT); INSERT INTO users VALUES (1, 'manager');",
    );
    const writer = script(
      "writer.py",
      `import sqlite3
for line in sys.stdin:
    request = json.loads(line)
    db = sqlite3.connect(request["context"]["db_path"])
    db.execute("UPDATE users SET role = 'admin' WHERE id = 1")
    db.commit()
    db.close()
    print(json.dumps({"id": request["id"], "answer": "done"}), flush=True)
`,
    );
    const agent = await commandAgent({ command: ["python3", writer] });
    try {
      const promote = defineCase({
        question: "Promote user 1",
        expect: {
          db_change: {
            rows: {
              by_key: { id: 1 },
              changed: { where: [{ $before: { role: "manager" }, $after: { role: "admin" } }] },
            },
          },
        },
      });
      const result = await runSuite([promote, promote], agent, { agentDb: db, concurrency: 1 });
      assert.deepEqual(result.cases.map((c) => c.verdict), ["PASS", "PASS"]);
    } finally {
      await agent.close();
    }
  });

  it(
    "makes an extra line, written with no request waiting, an ERROR for the next case",
    SLOW,
    async () => {
      const chatty = script(
        "chatty.py",
        `for line in sys.stdin:
    reply = json.dumps({"id": json.loads(line)["id"], "answer": "ok"})
    sys.stdout.write(reply + "\\nDone.\\n")  # one write: the extra line comes with the reply
    sys.stdout.flush()
`,
      );
      const agent = await commandAgent({ command: ["python3", chatty] });
      try {
        const cases = [defineCase({ question: "one" }), defineCase({ question: "two" })];
        const result = await runSuite(cases, agent, { concurrency: 1 });
        assert.equal(result.cases[0]!.verdict, "PASS");
        assert.match(
          result.cases[1]!.error ?? "",
          /wrote a line it was not asked for: "Done\."; write logs to stderr/,
        );
      } finally {
        await agent.close();
      }
      assert.deepEqual(await leftBehind(chatty), []);
    },
  );

  const refused: [string, () => string[], RegExp][] = [
    ["a program that is not found", () => ["no-such-agent-program"], /was not found/],
    ["a file that is not executable", () => [script("plain.py", "")], /cannot be run.*chmod \+x/],
    ["a folder", () => [dir.path], /cannot be run/],
  ];
  for (const [name, argv, message] of refused) {
    it(`refuses ${name} before any case runs`, SLOW, async () => {
      await assert.rejects(
        commandAgent({ command: argv() }),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
      );
    });
  }
});

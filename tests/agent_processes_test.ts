/**
 * One process matrix for both transports that run the agent in a process
 * of its own (`--agent-cmd` workers, `--agent` module hosts): an agent that
 * hangs after starting a grandchild, exits, floods stderr, leaves a
 * grandchild running, or takes a while (its process must live as long as
 * the run needs it), and a run stopped by SIGTERM while it hangs. Each
 * gets its verdict, and afterwards nothing the agent started is running
 * (read from the process table). The agents' files live in a folder of
 * their own, whose path is in every command line they start.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { cliCommand } from "./cli.ts";
import { tempDir } from "./fixtures.ts";
import { leftBehind, processesMatching } from "./process_table.ts";
import { needs } from "./system_packages.ts";

const dir = tempDir("dbagenteval-agent-processes-");
after(() => dir.cleanup());
const SLOW = { timeout: 120_000 };
/** Bytes each flooding agent writes to stderr. */
const FLOOD = 8 << 20;

/** A grandchild that outlives its parent unless its process group is killed. */
const grandchild = (marker: string): string =>
  JSON.stringify(["python3", "-c", "import time; time.sleep(300)", marker]);

interface Transport {
  readonly name: string;
  /** Writes the agent into `folder`; returns the run's agent arguments. */
  readonly agent: (folder: string) => string[];
  /** What the case whose agent exits with code 3 says. */
  readonly exited: RegExp;
}

const TRANSPORTS: readonly Transport[] = [
  {
    name: "--agent-cmd",
    agent: (folder) => {
      fs.writeFileSync(
        path.join(folder, "agent.py"),
        `import json, subprocess, sys, time
GRANDCHILD = ${grandchild(folder)}
for line in sys.stdin:
    request = json.loads(line)
    q = request["question"]
    if q == "hang":
        subprocess.Popen(GRANDCHILD)
        time.sleep(300)
    elif q == "exit":
        sys.exit(3)
    elif q == "flood":
        sys.stderr.write(("x" * 1023 + "\\n") * ${FLOOD / 1024})
        sys.stderr.flush()
    elif q == "fork":
        subprocess.Popen(GRANDCHILD)
    elif q == "slow":
        time.sleep(1.2)
    print(json.dumps({"id": request["id"], "answer": "ok"}), flush=True)
`,
      );
      return ["--agent-cmd", "python3 agent.py"];
    },
    exited: /^ERROR exit\n {6}the agent exited with code 3 /m,
  },
  {
    name: "--agent",
    agent: (folder) => {
      fs.writeFileSync(
        path.join(folder, "agent.ts"),
        `import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
const [program, ...args] = ${grandchild(folder)};
export async function agent(q: string): Promise<string> {
  if (q === "hang") {
    spawn(program, args, { stdio: "ignore" });
    while (true) {}
  }
  if (q === "exit") process.exit(3);
  if (q === "flood") {
    const line = "x".repeat(1023) + "\\n";
    for (let i = 0; i < ${FLOOD / 1024}; i++) process.stderr.write(line);
  }
  if (q === "fork") spawn(program, args, { stdio: "ignore" });
  if (q === "slow") await new Promise((resolve) => setTimeout(resolve, 1200));
  return "ok";
}
`,
      );
      return ["--agent", "agent.ts:agent"];
    },
    exited:
      /^ERROR exit\n {6}agent raised: the agent ended its process before answering \(it exited with code 3\)\n/m,
  },
];

/** A run of the CLI in `folder`, its stderr drained (a flood must not block it). */
function run(folder: string, args: string[], stop?: (child: ChildProcess) => void) {
  const [cmd, ...pre] = cliCommand();
  const child = spawn(cmd!, [...pre, ...args], {
    cwd: folder,
    env: { ...process.env, NO_COLOR: "1", GITHUB_ACTIONS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderrBytes = 0;
  let stderrHead = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => stdout += chunk);
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderrHead.length < 2000) stderrHead += chunk.toString("utf8", 0, 2000);
    stderrBytes += chunk.length;
  });
  stop?.(child);
  return new Promise<{ code: number | null; stdout: string; stderrBytes: number; head: string }>(
    (resolve) =>
      child.on("close", (code) => resolve({ code, stdout, stderrBytes, head: stderrHead })),
  );
}

function cases(folder: string, questions: readonly string[]): string {
  const file = path.join(folder, "cases.yaml");
  fs.writeFileSync(file, questions.map((q) => `- id: ${q}\n  question: ${q}\n`).join(""));
  return "cases.yaml";
}

for (const transport of TRANSPORTS) {
  describe(`an agent over ${transport.name}`, { skip: needs("python3") }, () => {
    it(
      "that hangs, exits, floods stderr or forks gets its verdict, and leaves nothing running",
      SLOW,
      async () => {
        const folder = dir.file(`${transport.name.slice(2)}-matrix`);
        fs.mkdirSync(folder);
        const agent = transport.agent(folder);
        const file = cases(folder, ["hang", "exit", "flood", "fork", "slow", "fine"]);
        const r = await run(folder, [
          "run",
          file,
          ...agent,
          "--timeout",
          "3",
          "--concurrency",
          "1",
        ]);
        assert.match(r.stdout, /^ERROR hang\n {6}timed out after 3 s: the agent did not finish/m);
        assert.match(r.stdout, transport.exited, r.stdout);
        for (const q of ["flood", "fork", "slow", "fine"]) {
          assert.match(r.stdout, new RegExp(`^PASS {2}${q}$`, "m"), r.stdout + r.head);
        }
        assert.equal(r.code, 1, r.stdout);
        if (transport.name === "--agent") assert.ok(r.stderrBytes >= FLOOD, r.head);
        assert.deepEqual(await leftBehind(folder), []);
      },
    );

    it("stopped by SIGTERM while it hangs leaves nothing running", SLOW, async () => {
      const folder = dir.file(`${transport.name.slice(2)}-signal`);
      fs.mkdirSync(folder);
      const agent = transport.agent(folder);
      const file = cases(folder, ["hang"]);
      await run(folder, ["run", file, ...agent], async (child) => {
        // Wait (without a time assertion) until the grandchild runs.
        for (let i = 0; i < 600; i++) {
          if (processesMatching(folder).some((p) => p.args.includes("import time"))) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        child.kill("SIGTERM");
      });
      assert.deepEqual(await leftBehind(folder), []);
    });
  });
}

/**
 * Subprocess agent benchmark: 1,000 cases through `--agent-cmd` with a
 * trivial Python agent (read a line, parse it, write a reply), at
 * concurrency 1. The anchor is the same agent driven by a minimal loop in
 * the same run (write a request line, wait for the reply line, no checks):
 * the agent's own work plus the pipe round trip, which any harness pays.
 * The harness's overhead per case is the difference, measured three ways:
 * through runSuite with commandAgent (library), through the CLI (cli.ts
 * under this runtime), and through the compiled binary when it is built;
 * the two whole-process figures subtract a 1-case run (start-up).
 *
 *   deno run -A bench/agent_cmd.ts [--runs N]
 *   bun bench/agent_cmd.ts [--runs N]
 *
 * @module
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { commandAgent } from "../lib/agents/command_agent.ts";
import { defineCase } from "../lib/eval/cases.ts";
import { runSuite } from "../lib/eval/suite.ts";
import { measure, median } from "./_measure.ts";

/** The fastest run: on a shared machine, the run least slowed by other work. */
function best(values: readonly number[]): number {
  return Math.min(...values);
}

const root = path.resolve(import.meta.dirname!, "..");
const binary = path.join(root, "dist", "dbagenteval");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] || 3) || 3;
const N = 1000;
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

const AGENT = `import json, sys
for line in sys.stdin:
    request = json.loads(line)
    sys.stdout.write(json.dumps({"id": request["id"], "answer": "ok"}) + "\\n")
    sys.stdout.flush()
`;

/** The anchor: the agent driven by the least a driver can do, one request at a time. */
async function minimalLoop(script: string, requests: readonly string[]): Promise<number> {
  const child = spawn("python3", [script], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  let pending: ((line: string) => void) | undefined;
  let buffer = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffer += chunk;
    const nl = buffer.indexOf("\n");
    if (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      pending?.(line);
    }
  });
  const t = performance.now();
  for (const request of requests) {
    const reply = new Promise<string>((resolve) => pending = resolve);
    child.stdin!.write(`${request}\n`);
    JSON.parse(await reply);
  }
  const seconds = (performance.now() - t) / 1000;
  child.stdin!.end();
  await new Promise((resolve) => child.once("exit", resolve));
  return seconds;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-bench-agent-cmd-"));
try {
  const script = path.join(tmp, "agent.py");
  fs.writeFileSync(script, AGENT);
  const cases = Array.from(
    { length: N },
    (_, i) => defineCase({ id: `q${i + 1}`, question: `Question ${i + 1}?`, tags: ["bench"] }),
  );
  const requests = cases.map((c) =>
    JSON.stringify({ id: c.id, question: c.question, context: { tags: c.tags } })
  );
  // JSON lines rather than YAML: the YAML parser costs about 0.3 ms per case under Deno by
  // itself (it reads process.env once per token), which is no part of the agent transport.
  const lines = cases.map((c) =>
    `${JSON.stringify({ id: c.id, question: c.question, tags: c.tags })}\n`
  );
  fs.writeFileSync(path.join(tmp, "cases.jsonl"), lines.join(""));
  fs.writeFileSync(path.join(tmp, "one.jsonl"), lines[0]!);

  const anchor: number[] = [];
  const suite: number[] = [];
  for (let r = 0; r < runs; r++) {
    anchor.push(await minimalLoop(script, requests));
    const agent = await commandAgent({ command: ["python3", script] });
    try {
      const t = performance.now();
      const result = await runSuite(cases, agent, { concurrency: 1 });
      suite.push((performance.now() - t) / 1000);
      if (result.exitCode !== 0) throw new Error(`the suite did not pass:\n${result.summary()}`);
    } finally {
      await agent.close();
    }
  }
  const perCase = (seconds: number) => `${(seconds * 1000 / N).toFixed(3)} ms/case`;
  console.log(
    `runtime: ${
      isBun ? `bun ${process.versions["bun"]}` : `deno ${process.versions["deno"]}`
    }, ${N} cases, concurrency 1, ${runs} runs (best, and median)`,
  );
  for (const [name, pick] of [["best", best], ["median", median]] as const) {
    const a = pick(anchor);
    const s = pick(suite);
    console.log(
      `${name}: anchor (minimal loop) ${perCase(a)}, runSuite + commandAgent ${perCase(s)}, ` +
        `overhead ${((s - a) * 1000 / N).toFixed(3)} ms per case (${
          (s / a).toFixed(2)
        }x the anchor)`,
    );
  }
  const a = best(anchor);

  const runtime = isBun
    ? [process.execPath, path.join(root, "cli.ts")]
    : [process.execPath, "run", "--allow-all", "--quiet", path.join(root, "cli.ts")];
  const whole: [string, string[]][] = [["cli.ts", runtime]];
  if (fs.existsSync(binary)) whole.push(["binary", [binary]]);
  for (const [name, command] of whole) {
    const run = (file: string) => [
      ...command,
      "run",
      file,
      "--agent-cmd",
      `python3 ${script}`,
      "--concurrency",
      "1",
    ];
    const full: number[] = [];
    const one: number[] = [];
    for (let r = 0; r < runs; r++) {
      full.push(measure(run("cases.jsonl"), { cwd: tmp, discardStdout: true }).seconds);
      one.push(measure(run("one.jsonl"), { cwd: tmp, discardStdout: true }).seconds);
    }
    const f = best(full);
    const o = best(one);
    const per = (f - o) / (N - 1);
    console.log(
      `${name} (best): ${N} cases ${f.toFixed(3)} s, 1 case ${o.toFixed(3)} s; per case ` +
        `${(per * 1000).toFixed(3)} ms, overhead beyond the anchor ${
          ((per - a / N) * 1000).toFixed(3)
        } ms per case`,
    );
  }
  if (!fs.existsSync(binary)) console.log("binary: skipped, run deno task build first");
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

/**
 * One table of SQLite values (tests/value_table.ts) through every
 * transport: an agent over --agent-cmd and --agent-url writes each value as
 * a Python agent writes it (a bare integer past 2^53, `1.0`, `-0.0`, the
 * codec's `{"$blob": ...}`), and an --agent module returns the values
 * themselves, which cross to the run through its host. Each trace's rows
 * must hold exactly the table's values; and `run --json` must write them so
 * that the file reads back to the same values.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { commandAgent } from "../lib/agents/command_agent.ts";
import { agentService, replying } from "./agent_service.ts";
import { httpAgent } from "../lib/agents/http_agent.ts";
import { moduleAgent } from "../lib/agents/module_agent.ts";
import type { ClosableAgent } from "../lib/agents/types.ts";
import { defineCase } from "../lib/eval/cases.ts";
import { readRunFile } from "../lib/eval/run_file.ts";
import { runSuite } from "../lib/eval/suite.ts";
import { runCli } from "./cli.ts";
import { tempDir } from "./fixtures.ts";
import { needs } from "./system_packages.ts";
import { VALUES } from "./value_table.ts";

const dir = tempDir("dbagenteval-agent-values-");
after(() => dir.cleanup());
const SLOW = { timeout: 120_000 };

/** The reply to "value N": one row, its one column the table's Nth value as an agent writes it. */
const replyText = (id: string, question: string): string =>
  `{"id": ${JSON.stringify(id)}, "rows": [{"v": ${VALUES[Number(question.split(" ")[1])]![2]}}]}`;

const texts = dir.file("texts.json");
fs.writeFileSync(texts, JSON.stringify(VALUES.map(([, , text]) => text)));
const python = dir.file("agent.py");
fs.writeFileSync(
  python,
  `import json, sys
TEXTS = json.load(open(${JSON.stringify(texts)}))
for line in sys.stdin:
    request = json.loads(line)
    value = TEXTS[int(request["question"].split(" ")[1])]
    sys.stdout.write('{"id": %s, "rows": [{"v": %s}]}\\n' % (json.dumps(request["id"]), value))
    sys.stdout.flush()
`,
);
const module = dir.file("agent.ts");
fs.writeFileSync(
  module,
  `import { VALUES } from ${JSON.stringify(path.resolve(import.meta.dirname!, "value_table.ts"))};
export const agent = (q: string) => ({ rows: [{ v: VALUES[Number(q.split(" ")[1])]![1] }] });
`,
);

const url = agentService(replying(replyText));

const CASES = VALUES.map((_, i) => defineCase({ id: `v${i}`, question: `value ${i}` }));

const transports: [string, () => Promise<ClosableAgent>][] = [
  ["--agent-cmd", () => commandAgent({ command: ["python3", python] })],
  ["--agent-url", () => Promise.resolve(httpAgent({ url: url() }))],
  ["--agent (the hosted wire)", () => moduleAgent({ module: `${module}:agent` })],
];

describe("every value of the table", { skip: needs("python3") }, () => {
  for (const [name, start] of transports) {
    it(`reaches the trace exactly over ${name}`, SLOW, async () => {
      const agent = await start();
      try {
        const result = await runSuite(CASES, agent, { concurrency: 1 });
        for (const [i, [what, value]] of VALUES.entries()) {
          const c = result.cases[i]!;
          assert.equal(c.verdict, "PASS", `${what}: ${c.error}`);
          assert.deepEqual(c.scorecard.trace?.lastOf("execute")?.rows, [{ v: value }], what);
        }
      } finally {
        await agent.close();
      }
    });
  }

  it("is written by run --json so that the file reads back to the same values", SLOW, async () => {
    const cases = dir.file("cases.yaml");
    fs.writeFileSync(
      cases,
      CASES.map((c) => `- {id: ${c.id}, question: ${c.question}}\n`).join(""),
    );
    const out = dir.file("run.json");
    const r = runCli(["run", cases, "--agent", `${module}:agent`, "--json", out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const read = await readRunFile(out);
    for (const [i, [what, value]] of VALUES.entries()) {
      const rows = read.cases[i]?.trace?.find((s) => s.kind === "execute")?.rows;
      assert.deepEqual(rows, [{ v: value }], what);
    }
  });
});

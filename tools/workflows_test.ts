/**
 * The GitHub workflows and the root action.yml cannot run here; this checks
 * what can be checked without GitHub: they parse, have the keys GitHub
 * requires, their shell scripts parse, inputs reach scripts only through
 * env (no `${{ inputs.* }}` spliced into a script), and they name the five
 * release binaries the release script builds. It also reads the GitLab CI
 * example of docs/ci.md for what its image lacks.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { binaryName, TARGETS } from "./release.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");

type Yaml = Record<string, unknown>;
interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly with?: Yaml;
}

function load(file: string): Yaml {
  const doc = parse(fs.readFileSync(path.join(ROOT, file), "utf8"));
  assert.equal(typeof doc, "object", `${file} is not a YAML mapping`);
  return doc as Yaml;
}

function jobs(doc: Yaml): [string, { "runs-on": unknown; steps: Step[] }][] {
  return Object.entries(doc["jobs"] as Yaml) as [string, { "runs-on": unknown; steps: Step[] }][];
}

function checkScript(where: string, script: string): void {
  assert.doesNotMatch(script, /\$\{\{\s*inputs\./, `${where}: pass inputs through env`);
  const r = spawnSync("bash", ["-n"], { input: script, encoding: "utf8" });
  assert.equal(r.status, 0, `${where}: ${r.stderr}`);
}

function checkSteps(where: string, steps: Step[], composite: boolean): void {
  assert.ok(Array.isArray(steps) && steps.length > 0, `${where}: no steps`);
  steps.forEach((step, i) => {
    assert.ok(
      (step.uses === undefined) !== (step.run === undefined),
      `${where} step ${i}: needs one of uses or run`,
    );
    if (step.run !== undefined) {
      if (composite) assert.equal(typeof step.shell, "string", `${where} step ${i}: no shell`);
      checkScript(`${where} step ${i}`, step.run);
    }
  });
}

describe(".github/workflows and action.yml", () => {
  for (const file of [".github/workflows/ci.yml", ".github/workflows/release.yml"]) {
    it(`${file} parses and every job has runs-on and valid steps`, () => {
      const doc = load(file);
      assert.equal(typeof doc["name"], "string");
      assert.ok(doc["on"] !== undefined, `${file}: no "on" trigger`);
      assert.ok(jobs(doc).length > 0, `${file}: no jobs`);
      for (const [name, job] of jobs(doc)) {
        assert.equal(typeof job["runs-on"], "string", `${file} ${name}: no runs-on`);
        checkSteps(`${file} ${name}`, job.steps, false);
      }
    });
  }

  it("ci.yml runs .ci/run on pushes to main and on pull requests", () => {
    const doc = load(".github/workflows/ci.yml");
    const on = doc["on"] as Yaml;
    assert.deepEqual((on["push"] as Yaml)["branches"], ["main"]);
    assert.ok("pull_request" in on);
    const runs = jobs(doc).flatMap(([, j]) => j.steps.map((s) => s.run ?? ""));
    assert.ok(runs.some((r) => r.includes(".ci/run")), "no step runs .ci/run");
  });

  it("release.yml builds on a v* tag and publishes the five binaries and SHA256SUMS", () => {
    const doc = load(".github/workflows/release.yml");
    assert.deepEqual(((doc["on"] as Yaml)["push"] as Yaml)["tags"], ["v*"]);
    assert.equal((doc["permissions"] as Yaml)["contents"], "write");
    const runs = jobs(doc).flatMap(([, j]) => j.steps.map((s) => s.run ?? "")).join("\n");
    assert.match(runs, /deno task release/);
    const publish = runs.slice(runs.indexOf("gh release create"));
    for (const target of TARGETS) assert.ok(publish.includes(binaryName(target)), target.name);
    assert.match(publish, /SHA256SUMS/);
  });

  it("action.yml is a composite action with the config, cases and shard inputs", () => {
    const doc = load("action.yml");
    for (const key of ["name", "description"]) assert.equal(typeof doc[key], "string", key);
    const inputs = doc["inputs"] as Record<string, Yaml>;
    for (const input of ["config", "cases", "shard", "version", "args"]) {
      assert.equal(typeof inputs[input]?.["description"], "string", `input ${input}`);
    }
    const runs = doc["runs"] as { using: string; steps: Step[] };
    assert.equal(runs.using, "composite");
    checkSteps("action.yml", runs.steps, true);
  });

  it("action.yml downloads every release binary, checks its sum and fills the job summary", () => {
    const steps = (load("action.yml")["runs"] as { steps: Step[] }).steps;
    const scripts = steps.map((s) => s.run ?? "").join("\n");
    for (const target of TARGETS) assert.ok(scripts.includes(binaryName(target)), target.name);
    assert.match(scripts, /sha256sum -c/);
    assert.match(scripts, /GITHUB_STEP_SUMMARY/);
    assert.match(scripts, /"\$BIN" run/);
  });

  it("docs/ci.md's GitLab CI example installs the program its agent command runs", () => {
    // A Debian slim image has no interpreter: the program --agent-cmd starts
    // must come from the job's apt-get install (Debian's package of that name).
    const page = fs.readFileSync(path.join(ROOT, "docs/ci.md"), "utf8");
    const section = page.slice(page.indexOf("#### GitLab CI"));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(block !== undefined, "docs/ci.md: no GitLab CI yaml block");
    const doc = parse(block) as Record<string, Yaml>;
    const lines = (job: Yaml, key: string): string => {
      const base = typeof job["extends"] === "string" ? doc[job["extends"]] ?? {} : {};
      return [base[key], job[key]].flat().filter((l) => typeof l === "string").join("\n");
    };
    const programs = Object.entries(doc).flatMap(([name, job]) =>
      [...lines(job, "script").matchAll(/--agent-cmd "(\S+)/g)].map((m) =>
        [name, job, m[1]!] as const
      )
    );
    assert.ok(programs.length > 0, "no job runs --agent-cmd");
    for (const [name, job, program] of programs) {
      const install = /apt-get install ([^\n&|;]*)/.exec(lines(job, "before_script"))?.[1] ?? "";
      assert.ok(install.split(/\s+/).includes(program), `${name}: ${program} is not installed`);
    }
  });
});

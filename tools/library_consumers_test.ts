/**
 * The library from another project, as its users get it: a Deno project and
 * a Bun project in a temporary folder, outside this repository, import the
 * package and run a diff and an agent test (which loads SQLite's WebAssembly,
 * node-sql-parser and valibot, so every npm dependency must resolve).
 *
 * - JSR / Deno: the files `deno publish` would upload (its dry-run list),
 *   copied alone into a folder, are linked from the consumer's deno.json
 *   (`"links"`) in place of `jsr:@dbagenteval/dbagenteval`: the package must
 *   resolve its npm dependencies with its own deno.json, as it will on JSR.
 * - npm / Bun: the README's Bun commands as written, from a project beside
 *   the checkout: the tarball `bun pm pack` makes (package.json "files"),
 *   installed with `bun add`, which installs the dependencies from npm; the
 *   checkout must come out as it went in.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { VERSION } from "../lib/version.ts";
import { needs } from "../tests/system_packages.ts";
import { denoPath } from "../tests/cli.ts";

const ROOT = path.resolve(import.meta.dirname ?? ".", "..");
const CHINOOK = path.join(ROOT, "examples", "chinook", "Chinook_Sqlite.sqlite");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbagenteval-consumers-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(
  cmd: string,
  args: string[],
  cwd: string,
  stream: "stdout" | "stderr" = "stdout",
): string {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r[stream];
}

/** The consumer's program: the same for both runtimes but for the import. */
function program(specifier: string): string {
  return `import {
  defineCase,
  diffSqliteDatabases,
  explainMatch,
  ReadOnly,
  runSuite,
  sqliteExecutor,
  VERSION,
} from "${specifier}";

const db = ${JSON.stringify(CHINOOK)};
const diff = await diffSqliteDatabases(db, db);
const same = explainMatch(diff, { rows: { changed: { $count: 0 } } }).matched;
const cases = [
  defineCase({ question: "How many genres?", reference_sql: "SELECT COUNT(*) FROM Genre" }),
];
const agent = () => ({ sql: "SELECT COUNT(*) AS n FROM Genre", rows: [{ n: 25 }], answer: "25" });
const execute = sqliteExecutor(db);
const result = await runSuite(cases, agent, { execute, rules: [new ReadOnly()] });
execute.close();
console.log(VERSION, same, result.passed + " of " + result.total);
`;
}

const EXPECTED = `${VERSION} true 1 of 1\n`;

/** Test data and test helpers, which no package ships. */
const TEST_FILES = /^package\/(rules\/testdata\/|.*\/_test_[^/]*\.ts$|.*_test_util\.ts$)/m;

describe("the library from a project outside the repository", () => {
  it("runs in a Deno project that links the files deno publish would upload", () => {
    // --no-check: CI type-checks the package in its own step; here only the file list matters.
    const listing = run(
      "deno",
      ["publish", "--dry-run", "--allow-dirty", "--no-check"],
      ROOT,
      "stderr",
    );
    const files = [...listing.matchAll(/^\s+file:\/\/(\S+) \(/gm)].map((m) => m[1]!)
      .map((f) => path.relative(ROOT, decodeURIComponent(f)))
      .filter((f) => f !== ".git");
    assert.ok(files.includes("mod.ts") && files.includes("deno.json"), files.join(", "));
    assert.ok(!files.some((f) => f.endsWith("_test.ts") || f.startsWith("tests/")), "tests");
    assert.deepEqual(files.filter((f) => TEST_FILES.test(`package/${f}`)), [], "test data");
    const pkg = path.join(dir, "jsr-package");
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(pkg, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(pkg, file));
    }
    const app = path.join(dir, "deno-app");
    fs.mkdirSync(app);
    fs.writeFileSync(
      path.join(app, "deno.json"),
      JSON.stringify({
        imports: { "@dbagenteval/dbagenteval": `jsr:@dbagenteval/dbagenteval@^${VERSION}` },
        links: [pkg],
      }),
    );
    fs.writeFileSync(path.join(app, "main.ts"), program("@dbagenteval/dbagenteval"));
    assert.equal(run("deno", ["run", "--allow-all", "--quiet", "main.ts"], app), EXPECTED);
  });

  it("runs in a Bun project set up as the README says, without touching the checkout", {
    skip: needs("bun"),
  }, () => {
    // The README's Bun block, run as written from a project beside the
    // checkout (../dbagenteval is a link to this repository).
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("- **Bun**:"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1]?.replace(/^ {2}/gm, "");
    assert.ok(block !== undefined, "README.md has no ```sh block under '- **Bun**:'");
    assert.match(block, /\bbun add \.\/\S+\.tgz\b/, "the README's Bun block adds no tarball");
    fs.symlinkSync(ROOT, path.join(dir, "dbagenteval"));
    const app = path.join(dir, "bun-app");
    fs.mkdirSync(app);
    fs.writeFileSync(
      path.join(app, "package.json"),
      JSON.stringify({ name: "app", private: true, type: "module" }),
    );
    const status = () =>
      fs.existsSync(path.join(ROOT, ".git"))
        ? run("git", ["status", "--porcelain", "--ignored=no"], ROOT)
        : "";
    const before = status();
    run("bash", ["-c", `set -euo pipefail\n${block}`], app);
    assert.equal(status(), before, "the README's Bun block changed files in the checkout");
    const tarball = fs.readdirSync(app).find((f) => f.endsWith(".tgz"));
    assert.ok(tarball !== undefined, "bun pm pack wrote no tarball");
    const listed = run("tar", ["-tzf", path.join(app, tarball)], app);
    assert.match(listed, /^package\/mod\.ts$/m);
    assert.doesNotMatch(listed, /_test\.ts$|^package\/(tests|\.git|node_modules|dist)\//m);
    // No test data or test helpers either (rules/testdata/ alone was 1.4 MB).
    assert.doesNotMatch(listed, TEST_FILES);
    // What the project got is the package's files alone, not the checkout.
    const installed = path.join(app, "node_modules", "dbagenteval");
    for (const name of [".git", "node_modules", "dist"]) {
      assert.ok(!fs.existsSync(path.join(installed, name)), `node_modules/dbagenteval/${name}`);
    }
    fs.writeFileSync(path.join(app, "main.ts"), program("dbagenteval"));
    assert.equal(run("bun", ["main.ts"], app), EXPECTED);
    // The package's command, as bunx runs it; Deno cannot run it from node_modules, and says so.
    assert.equal(run("bunx", ["dbagenteval", "--version"], app), `${VERSION}\n`);
    const bin = path.join(app, "node_modules", ".bin", "dbagenteval");
    assert.ok(run("bun", [bin, "db", "info", CHINOOK], app).startsWith(`${CHINOOK}: `));
    const denoExe = denoPath();
    if (denoExe !== null) {
      const deno = spawnSync(denoExe, ["run", "-A", bin, "--version"], {
        cwd: app,
        encoding: "utf8",
      });
      assert.deepEqual([deno.status, deno.stderr], [
        2,
        "error: the dbagenteval package's command runs under Bun: run bunx dbagenteval (npm install -g bun), or use the single binary\n",
      ]);
    }
  });
});

describe("deno.json imports", () => {
  it("maps every package.json dependency to the same npm version (what JSR users resolve)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const deno = JSON.parse(fs.readFileSync(path.join(ROOT, "deno.json"), "utf8"));
    const expected: Record<string, string> = {};
    for (const [name, version] of Object.entries(pkg.dependencies as Record<string, string>)) {
      expected[name] = `npm:${name}@${version}`;
      expected[`${name}/`] = `npm:/${name}@${version}/`;
    }
    assert.deepEqual(deno.imports, expected);
  });
});

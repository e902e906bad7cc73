/**
 * docs/how-to/diff-databases-in-git.md, run as written in a real git
 * repository: its setup lines, then three commits of a database made from
 * SQL here, then its `git diff HEAD~1`, `git log -p`, `git diff --stat` and
 * `db diff --summary` blocks, each checked against the output the page
 * shows; the Deno form of the driver is run too, with this checkout's path.
 * The driver is `dbagenteval` on the PATH: the CLI, or the binary under
 * DBAGENTEVAL_BIN.
 *
 * @module
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { makeDb, tempDir } from "./fixtures.ts";
import { cliCommand, ROOT } from "./cli.ts";
import { type Block, blocks, printsWhatThePageSays } from "./_doc_blocks.ts";
import { needs } from "./system_packages.ts";

const PAGE = "docs/how-to/diff-databases-in-git.md";

const dir = tempDir("dbagenteval-git-");
after(() => dir.cleanup());

/** `dbagenteval` on a PATH of its own, as a user has it. */
function binFolder(): string {
  const bin = dir.file("bin");
  fs.mkdirSync(bin);
  const quoted = cliCommand().map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  fs.writeFileSync(path.join(bin, "dbagenteval"), `#!/bin/sh\nexec ${quoted} "$@"\n`, {
    mode: 0o755,
  });
  return bin;
}

describe(`${PAGE} in a git repository`, { skip: needs("git") }, () => {
  const repo = dir.file("repo");
  const env = {
    ...process.env,
    PATH: `${binFolder()}${path.delimiter}${process.env["PATH"]}`,
    // Only this repository's configuration: none of the machine's or the user's.
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    NO_COLOR: "1",
  };
  const sh = (script: string): string => {
    const r = spawnSync("bash", ["-c", `set -eo pipefail\n${script}`], {
      cwd: repo,
      env,
      encoding: "utf8",
      timeout: 300_000,
    });
    assert.equal(r.status, 0, `exit ${r.status}:\n${script}\n${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const page = blocks(PAGE, true);
  const block = (pattern: RegExp): Block => {
    const found = page.filter((b) => pattern.test(b.script));
    assert.equal(found.length, 1, `${PAGE} has ${found.length} blocks matching ${pattern}`);
    return found[0]!;
  };
  const runs = (b: Block): void => {
    const output = sh(b.script);
    assert.ok(b.expected !== undefined, `${PAGE}:${b.line} shows no output`);
    const problem = printsWhatThePageSays(output, b.expected);
    assert.equal(
      problem,
      undefined,
      `${PAGE}:${b.line}: ${problem}\n--- the page says:\n${b.expected}--- it printed:\n${output}`,
    );
  };
  const diffHead1 = () => block(/^git diff HEAD~1\b/m);

  it("the setup lines, then three commits of shop.db", () => {
    fs.mkdirSync(repo);
    sh("git init -q .");
    sh(block(/textconv "dbagenteval db dump"/).script);
    sh(block(/cachetextconv true/).script);
    const db = path.join(repo, "shop.db");
    makeDb(
      db,
      `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, role TEXT);
       INSERT INTO users VALUES (1, 'alice', 'manager'), (2, 'bob', 'member'), (3, 'carol', 'member');`,
    );
    sh("git add .gitattributes shop.db && git commit -qm 'three users'");
    const edit = (sql: string, message: string) => {
      const d = new DatabaseSync(db);
      d.exec(sql);
      d.close();
      sh(`git commit -qam '${message}'`);
    };
    edit(
      "UPDATE users SET role = 'admin' WHERE id = 1; INSERT INTO users VALUES (4, 'dave', 'member');",
      "promote alice, add dave",
    );
    edit(
      `DELETE FROM users WHERE id = 2;
       CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, total REAL);
       INSERT INTO orders VALUES (1, 1, 9.5);`,
      "remove bob, add orders",
    );
    assert.match(sh("git log --format=%s"), /remove bob[\s\S]*promote alice[\s\S]*three users/);
  });

  it("git diff HEAD~1 prints the rows the last commit changed", () => runs(diffHead1()));

  it("git log -p prints each commit's rows", () => runs(block(/^git log -p\b/m)));

  it("git show prints the last commit's rows", () => {
    const shown = sh("git show HEAD -- shop.db");
    assert.match(shown, /^- {2}INSERT INTO "users" VALUES\(2,'bob','member'\);$/m);
    assert.match(shown, /^\+ {2}INSERT INTO "orders" VALUES\(1,1,9\.5\);$/m);
    assert.doesNotMatch(shown, /Binary files/);
  });

  it("git diff --stat shows the database as binary, with its sizes", () =>
    runs(block(/^git diff --stat\b/m)));

  it("db diff --summary of two versions counts the rows", () => {
    runs(block(/db diff --summary/));
    assert.match(
      sh(block(/db diff --summary/).script),
      /users: 1 changed( \(1 cell\))?, 1 added, 1 removed/,
    );
  });

  it("the texts are cached in refs/notes/textconv/sqlite", () => {
    assert.match(sh("git for-each-ref refs/notes/"), /refs\/notes\/textconv\/sqlite$/m);
  });

  it("deno run cli.ts is the driver as the page writes it, from this checkout", {
    skip: needs("deno"),
  }, () => {
    const deno = block(/deno run .*cli\.ts db dump/).script.replaceAll(
      "/path/to/dbagenteval",
      ROOT,
    );
    sh(deno);
    assert.match(sh("git config diff.sqlite.textconv"), /^deno run .*cli\.ts db dump$/m);
    runs(diffHead1());
  });
});

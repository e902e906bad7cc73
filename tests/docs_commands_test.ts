/**
 * Every command the documentation shows runs, and prints what the page says.
 *
 * For each ```sh block of README.md and docs/ (including docs/ subfolders)
 * that calls `dbagenteval`, the whole block runs with bash in a sandbox: a
 * copy of the repository with the files the pages name (before.db and
 * after.db as the README shows them, a cases.yaml/agent.ts/shop.db project
 * as `init` writes it, a selector.yaml), and `dbagenteval` on the PATH (the
 * CLI, or the binary under DBAGENTEVAL_BIN). A block must exit 0 or 1 (2 is
 * "could not run"). When an untagged ``` block follows it directly, that is
 * what it prints: each of its lines must appear in the output, in order
 * (a line `...` stands for lines left out).
 *
 * A block that needs what a test cannot have (a server at a made-up address,
 * an agent service started by hand, CI artifacts, network installs) is
 * marked just above it, for readers and this test alike, with
 * `<!-- not run: needs a PostgreSQL server -->`. A block marked
 * `<!-- needs a PostgreSQL server -->` runs against the server tests' server
 * (tests/postgres_server.ts), reached through PGHOST, PGPORT, PGUSER and
 * PGPASSWORD as the page tells its readers (as its superuser); the databases
 * it creates with `createdb` and the roles it creates with `CREATE ROLE` must
 * not exist there before, and are dropped after.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { makeDb, tempDir } from "./fixtures.ts";
import { cliCommand, ROOT } from "./cli.ts";
import { needs } from "./system_packages.ts";
import { blocks, printsWhatThePageSays } from "./_doc_blocks.ts";
import { NO_SERVER, POSTGRES_SUPERUSER_URL } from "./postgres_server.ts";
import { DatabaseSync } from "node:sqlite";

function pages(): string[] {
  const docs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".md")) docs.push(path.relative(ROOT, full));
    }
  };
  walk(path.join(ROOT, "docs"));
  return ["README.md", ...docs.sort()];
}

const sandbox = tempDir("dbagenteval-docs-");
after(() => sandbox.cleanup());

/** A copy of the repository with the files the pages use. */
function makeSandbox(): string {
  const root = sandbox.file("repo");
  const skip = new Set([
    ".git",
    "node_modules",
    "dist",
    "bench",
    ".test-results",
    "scratch",
    "tests",
  ]);
  fs.cpSync(ROOT, root, {
    recursive: true,
    filter: (src) => !skip.has(path.relative(ROOT, src).split(path.sep)[0]!),
  });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
  // docs/library.md's examples score the Spider sample the repository holds.
  fs.cpSync(
    path.join(ROOT, "tests", "data", "spider"),
    path.join(root, "tests", "data", "spider"),
    {
      recursive: true,
    },
  );
  // The README's diff: alice promoted, a todo done and one added, a phone column.
  makeDb(
    path.join(root, "before.db"),
    `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL);
     INSERT INTO users VALUES (1, 'alice', 'manager'), (2, 'bob', 'member'), (3, 'carol', 'member');
     CREATE TABLE todos (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, title TEXT NOT NULL,
       done INTEGER NOT NULL);
     INSERT INTO todos VALUES (1, 1, 'Plan the week', 0), (2, 2, 'Pay rent', 1),
       (3, 3, 'Book travel', 1);`,
  );
  fs.copyFileSync(path.join(root, "before.db"), path.join(root, "after.db"));
  // The runtime's own SQLite, not the sqlite3 shell: a fresh machine has none.
  const after = new DatabaseSync(path.join(root, "after.db"));
  after.exec(`ALTER TABLE users ADD COLUMN phone TEXT;
    UPDATE users SET role = 'admin' WHERE id = 1;
    DELETE FROM todos WHERE id = 3;
    INSERT INTO todos VALUES (4, 2, 'Call the bank', 0);`);
  after.close();
  fs.writeFileSync(
    path.join(root, "selector.yaml"),
    "rows:\n  changed:\n    where:\n      - $before: {role: manager}\n        $after: {role: admin}\n",
  );
  // A project as `dbagenteval init` writes it, without its config file, so
  // that the commands with flags run as they read.
  const bin = sandbox.file("bin");
  fs.mkdirSync(bin);
  const [cmd, ...pre] = cliCommand();
  const quoted = [cmd!, ...pre].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  fs.writeFileSync(path.join(bin, "dbagenteval"), `#!/bin/sh\nexec ${quoted} "$@"\n`, {
    mode: 0o755,
  });
  const init = spawnSync(path.join(bin, "dbagenteval"), ["init", "--dir", root, "--force"], {
    encoding: "utf8",
  });
  assert.equal(init.status, 0, init.stderr);
  fs.rmSync(path.join(root, "dbagenteval.yaml"));
  return root;
}

/**
 * The test server as the PG* variables a page's readers set (PGDATABASE left
 * to the block): its superuser, who may create databases and roles as the
 * pages' blocks do (the harness refuses it: the blocks make a role for it).
 */
function serverEnv(): Record<string, string> {
  const url = new URL(POSTGRES_SUPERUSER_URL!);
  return {
    PGHOST: url.hostname,
    PGPORT: url.port || "5432",
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: "",
  };
}

/** Runs one statement on the test server's `postgres` database; returns its rows as text. */
function psql(sql: string): string {
  const r = spawnSync("psql", ["-d", "postgres", "-X", "-q", "-t", "-A", "-c", sql], {
    encoding: "utf8",
    env: { ...process.env, ...serverEnv() },
  });
  assert.equal(r.status, 0, `psql -c ${sql}: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * The databases a block makes with `createdb NAME`, which must not exist on
 * the test server yet: the test drops them afterwards, and must never drop
 * one it did not make.
 */
function createdDatabases(script: string): string[] {
  const names = [...script.matchAll(/\bcreatedb\s+([A-Za-z_][\w]*)/g)].map((m) => m[1]!);
  for (const name of names) {
    const found = psql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`);
    assert.equal(
      found,
      "",
      `the test server already has a database ${name}, which this block creates: use a server without it`,
    );
  }
  return names;
}

/**
 * The roles a block makes with `CREATE ROLE NAME`, which must not exist on
 * the test server yet: the test drops them afterwards, and must never drop
 * one it did not make.
 */
function createdRoles(script: string): string[] {
  const names = [...script.matchAll(/\bCREATE ROLE\s+([A-Za-z_][\w]*)/g)].map((m) => m[1]!);
  for (const name of names) {
    const found = psql(`SELECT 1 FROM pg_roles WHERE rolname = '${name}'`);
    assert.equal(
      found,
      "",
      `the test server already has a role ${name}, which this block creates: use a server without it`,
    );
  }
  return names;
}

describe("the commands in README.md and docs/", () => {
  const all = pages().flatMap((page) => blocks(page));
  const root = makeSandbox();
  const env = {
    ...process.env,
    NO_COLOR: "1",
    PATH: `${sandbox.file("bin")}${path.delimiter}${process.env["PATH"]}`,
  };

  it("finds the pages' commands", () => {
    assert.ok(all.length >= 10, `only ${all.length} blocks found`);
  });

  it("docs/postgres.md has the line that loads Chinook into a server, run here against one", () => {
    const load = all.filter((b) =>
      b.file === "docs/postgres.md" &&
      /\bcreatedb \w+ && psql\b.*Chinook_PostgreSql\.sql/.test(b.script)
    );
    assert.equal(load.length, 1, "no createdb + psql block loading Chinook in docs/postgres.md");
    assert.ok(load[0]!.server, "the block is not marked <!-- needs a PostgreSQL server -->");
  });

  it("README.md's library example runs as written, from the repository's main folder", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Use it as a library"));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(code !== undefined, "no ```ts block under 'Use it as a library'");
    fs.writeFileSync(path.join(root, "example.ts"), code);
    const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
    const args = isBun ? ["example.ts"] : ["run", "--allow-all", "--quiet", "example.ts"];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^match$/m);
    assert.match(r.stdout, /\d+ of 14 passed/);
  });

  it("docs/library.md's examples run as written, from the repository's main folder", () => {
    const page = fs.readFileSync(path.join(ROOT, "docs", "library.md"), "utf8");
    const codes = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.equal(codes.length, 3, "docs/library.md: three ```ts examples");
    const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
    const outputs = codes.map((code, i) => {
      const file = `library_example_${i}.ts`;
      fs.writeFileSync(path.join(root, file), code);
      const args = isBun ? [file] : ["run", "--allow-all", "--quiet", file];
      const r = spawnSync(process.execPath, args, {
        cwd: root,
        encoding: "utf8",
        timeout: 120_000,
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    });
    assert.match(outputs[0]!, /^6 cases, exit code 1$/m);
    assert.match(outputs[0]!, /^spider: \d/m);
    assert.match(outputs[1]!, /^6 of 6 passed$/m);
    assert.match(outputs[2]!, /^2 of 3 passed/m);
    assert.match(outputs[2]!, /^true\ntrue 1$/m);
  });

  for (const block of all) {
    const name = `${block.file}:${block.line}${block.skip ? ` (not run: ${block.skip})` : ""}`;
    // A block may start PGlite and load Chinook: seconds, more than Bun's default 5 s test timeout.
    // A block that runs Python or the sqlite3 shell needs them, which a fresh machine may lack.
    // (`init --agent python` or `http` writes a project whose agent is Python.)
    const uses = {
      python3: /(^|[\s;&|("'])python3\s|--agent (python|http)\b/m,
      sqlite3: /(^|[\s;&|("'])sqlite3\s/m,
    } as const;
    const tools = (["python3", "sqlite3"] as const).filter((t) => uses[t].test(block.script));
    const skip = block.skip ??
      (block.server ? NO_SERVER || needs("psql", ...tools) : tools.length > 0 && needs(...tools));
    it(name, { skip, timeout: 300_000 }, () => {
      const created = block.server ? createdDatabases(block.script) : [];
      const roles = block.server ? createdRoles(block.script) : [];
      // Output to a file, not a pipe: a process the block leaves behind
      // cannot keep the test waiting for the pipe to close.
      const log = sandbox.file("output.txt");
      const fd = fs.openSync(log, "w");
      let r;
      try {
        r = spawnSync("bash", ["-c", `set -o pipefail\n${block.script}`], {
          cwd: root,
          env: block.server ? { ...env, ...serverEnv() } : env,
          stdio: ["ignore", fd, fd],
          timeout: 300_000,
        });
      } finally {
        fs.closeSync(fd);
        for (const db of created) psql(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
        for (const role of roles) psql(`DROP ROLE IF EXISTS "${role}"`);
      }
      const output = fs.readFileSync(log, "utf8");
      assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}:\n${block.script}\n${output}`);
      if (block.expected !== undefined) {
        const problem = printsWhatThePageSays(output, block.expected);
        assert.equal(
          problem,
          undefined,
          `${problem}\n--- the page says:\n${block.expected}--- it printed:\n${output}`,
        );
      }
    });
  }
});

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, snapshotDir, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());

describe("dbagenteval db info", () => {
  it("lists tables with row counts, page size, encoding and journal mode", () => {
    const file = makeDb(
      dir.file("shop.db"),
      `CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER);
       INSERT INTO orders (amount) VALUES (1), (2), (3);
       CREATE TABLE users (name TEXT);
       CREATE VIEW big AS SELECT * FROM orders WHERE amount > 1;`,
      { journal: "wal-pending" },
    );
    const before = snapshotDir(dir.path);
    const r = runCli(["db", "info", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /pages of 4096 bytes/);
    assert.match(r.stdout, /encoding UTF-8, journal mode wal/);
    assert.match(r.stdout, /orders +3 row\(s\)/);
    assert.match(r.stdout, /users +0 row\(s\)/);
    assert.match(r.stdout, /big +\(view, not counted\)/);
    assert.deepEqual(snapshotDir(dir.path), before);
  });

  for (const journal of ["delete", "wal", "wal-pending"] as const) {
    it(`reads a UTF-16 database (journal ${journal}) as it reads its UTF-8 copy, from its pages`, () => {
      const sql = (encoding: string) =>
        `PRAGMA encoding = '${encoding}'; CREATE TABLE orders (id INTEGER PRIMARY KEY, name TEXT);
         INSERT INTO orders (name) VALUES ('é'), ('😀'), ('x'); CREATE TABLE keyless (a);
         CREATE VIEW big AS SELECT * FROM orders WHERE id > 1;`;
      const info = (encoding: string) => {
        const file = makeDb(dir.file(`info-${journal}-${encoding}.db`), sql(encoding), { journal });
        const r = runCli(["db", "info", "--json", file]);
        assert.equal(r.code, 0, r.stderr);
        const { path: _, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
        return rest;
      };
      const utf8 = info("UTF-8");
      for (const encoding of ["UTF-16le", "UTF-16be"]) {
        assert.deepEqual(info(encoding), { ...utf8, encoding });
      }
    });
  }

  it("says a 0-byte file is an empty database, not '0 pages of 8192 bytes'", () => {
    fs.writeFileSync(dir.file("empty.db"), "");
    const r = runCli(["db", "info", dir.file("empty.db")]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout.split("\n")[0],
      `${
        dir.file("empty.db")
      }: 0 bytes, an empty database (no pages yet; SQLite reads it as a database with no tables)`,
    );
    const json = JSON.parse(runCli(["db", "info", dir.file("empty.db"), "--json"]).stdout);
    assert.deepEqual([json.sizeBytes, json.pageCount, json.pageSize], [0, 0, 0]);
  });

  it("prints JSON with --json", () => {
    const file = makeDb(dir.file("j.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    const r = runCli(["db", "info", file, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const info = JSON.parse(r.stdout);
    assert.deepEqual(info.tables, [{ name: "t", type: "table", rows: 1 }]);
    assert.equal(info.journalMode, "delete");
  });

  const bad: [string, () => string, RegExp][] = [
    ["a text file", () => {
      fs.writeFileSync(dir.file("readme.txt"), "hello, I am text\n");
      return dir.file("readme.txt");
    }, /is not a SQLite database \(header is "hello, I am text"\)/],
    ["a truncated database", () => {
      const full = makeDb(
        dir.file("full.db"),
        "CREATE TABLE t (x); INSERT INTO t SELECT zeroblob(9000);",
      );
      fs.writeFileSync(dir.file("cut.db"), fs.readFileSync(full).subarray(0, 5000));
      return dir.file("cut.db");
    }, /file is truncated/],
    ["a directory", () => dir.path, /it is a directory/],
    ["a missing path", () => dir.file("nope.db"), /no such file/],
  ];
  for (const [name, make, message] of bad) {
    it(`exits 2 with one clear line for ${name}`, () => {
      const file = make();
      const r = runCli(["db", "info", file]);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      const lines = r.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, message);
      assert.ok(lines[0]!.includes(file));
    });
  }

  it("exits 2 with one line and a hint on an unknown command", () => {
    const r = runCli(["db", "inf"]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      "error: unknown command 'inf' (Did you mean info?) (run dbagenteval db --help for usage)\n",
    );
  });

  it("prints the version in every manifest", () => {
    const r = runCli(["--version"]);
    assert.equal(r.code, 0);
    const deno = JSON.parse(fs.readFileSync(new URL("../deno.json", import.meta.url), "utf8"));
    const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    assert.equal(r.stdout.trim(), deno.version);
    assert.equal(pkg.version, deno.version);
  });
});

describe("dbagenteval db info --schema", () => {
  const file = makeDb(
    dir.file("schema.db"),
    `CREATE TABLE u(id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x',
       g INT GENERATED ALWAYS AS (id * 2));
     CREATE TABLE w(a TEXT, b INT, PRIMARY KEY(a, b)) WITHOUT ROWID;
     CREATE TABLE k(x);
     CREATE INDEX ix ON u(name);
     CREATE VIEW v AS SELECT 1;
     CREATE TRIGGER tr AFTER INSERT ON u BEGIN SELECT 1; END;`,
  );

  it("prints each table's key, columns, indexes and triggers, then the views", () => {
    const r = runCli(["db", "info", file, "--schema"]);
    assert.equal(r.code, 0, r.stderr);
    const schema = r.stdout.slice(r.stdout.indexOf("\n\n") + 2);
    assert.equal(
      schema,
      [
        "k: table, no key: rows compared as a multiset",
        "  x",
        "",
        "u: table, key (id), the rowid",
        "  id INTEGER PRIMARY KEY",
        "  name TEXT NOT NULL DEFAULT 'x'",
        "  g INT GENERATED VIRTUAL",
        "  index ix: CREATE INDEX ix ON u(name)",
        "  trigger tr: CREATE TRIGGER tr AFTER INSERT ON u BEGIN SELECT 1; END",
        "",
        "w: WITHOUT ROWID table, key (a, b)",
        "  a TEXT PRIMARY KEY #1 NOT NULL",
        "  b INT PRIMARY KEY #2 NOT NULL",
        "",
        "views:",
        "  v: CREATE VIEW v AS SELECT 1",
        "",
      ].join("\n"),
    );
  });

  it("adds the schema to --json", () => {
    const r = runCli(["db", "info", file, "--schema", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const info = JSON.parse(r.stdout);
    const w = info.schema.tables.find((t: { name: string }) => t.name === "w");
    assert.deepEqual([w.key, w.key_kind, w.without_rowid], [["a", "b"], "primary_key", true]);
    assert.deepEqual(info.schema.views, [{ name: "v", sql: "CREATE VIEW v AS SELECT 1" }]);
  });
});

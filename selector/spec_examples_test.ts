/**
 * Every example selector of the spec (database-diffing.txt, "The Selector"
 * to "YAML Representations"), each against the diff of real SQLite files
 * built here: once where it must match, once where it must not.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeDb, tempDir } from "../tests/fixtures.ts";
import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
import type { DatabaseDiff } from "../lib/diff/types.ts";
import { explainMatch } from "./explain.ts";
import { matchesDiff } from "./match.ts";
import { readSelector } from "./read.ts";

const dir = tempDir();
after(() => dir.cleanup());
let counter = 0;

const BASE = `
  CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, username TEXT, email TEXT,
    password TEXT, password_hash TEXT, role TEXT, status TEXT);
  CREATE TABLE permissions (id INTEGER PRIMARY KEY, user_id INTEGER, permissions TEXT);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL);
  INSERT INTO users VALUES
    (10, 'Bob', 'bob', 'bob@example.com', 'oldpass', 'h1', 'manager', 'active'),
    (11, 'Al', 'admin', 'al@example.com', 'pw', 'h2', 'user', 'active'),
    (12, 'Root', 'root', 'root@example.com', 'pw', 'h3', 'user', 'active');
  INSERT INTO permissions VALUES (1, 10, 'read'), (2, 11, 'read');
  INSERT INTO orders VALUES (1, 9.5);
`;

/**
 * Diffs BASE (plus `beforeSql`) against BASE plus `change`, both files
 * named `name`; `change` null deletes the database.
 */
async function diffChange(
  change: string | null,
  options: { name?: string; beforeSql?: string; base?: string } = {},
): Promise<DatabaseDiff> {
  const n = ++counter;
  const name = options.name ?? "users.db";
  const a = dir.file(`b${n}`);
  const b = dir.file(`a${n}`);
  fs.mkdirSync(a);
  fs.mkdirSync(b);
  const base = (options.base ?? BASE) + (options.beforeSql ?? "");
  const before = makeDb(path.join(a, name), base);
  const afterFile = change === null ? null : makeDb(path.join(b, name), base + change);
  return await diffSqliteDatabases(before, afterFile);
}

/** A schema whose users table has no email column yet, and no permissions table. */
const NO_EMAIL = `
  CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL);
  INSERT INTO users VALUES (1, 'Ann');
`;

// [example, selector, SQL that makes it match, SQL that must not match, base schema]
const examples: [string, unknown, string, string, string?][] = [
  [
    "Tables: a table by name and status",
    { tables: { name: "users", status: "changed" } },
    "UPDATE users SET status = 'gone' WHERE id = 11;",
    "UPDATE orders SET total = 1 WHERE id = 1;",
  ],
  [
    "Row Changes: a changed password column",
    { rows: { changed: { has_one: ["password"] } } },
    "UPDATE users SET password = 'x' WHERE id = 11;",
    "UPDATE users SET email = 'x@example.com' WHERE id = 11;",
  ],
  [
    "Field Value Changes: a password changed to newpass",
    { rows: { changed: { where: [{ password: { $eq: "newpass" } }] } } },
    "UPDATE users SET password = 'newpass' WHERE id = 11;",
    "UPDATE users SET password = 'otherpass' WHERE id = 11;",
  ],
  [
    "Target Specification: a schema change",
    { target: "schema" },
    "ALTER TABLE orders ADD COLUMN note TEXT;",
    "UPDATE orders SET total = 1 WHERE id = 1;",
  ],
  [
    "a row named alice added to any table",
    { rows: { added: { has_one: [{ name: "alice" }] } } },
    "INSERT INTO users (id, name) VALUES (20, 'alice');",
    "INSERT INTO users (id, name) VALUES (20, 'bob');",
  ],
  [
    "an email column added to the users table",
    { tables: { name: { has_one: ["users"] }, columns: { added: { has_one: "email" } } } },
    "ALTER TABLE users ADD COLUMN email TEXT;",
    "ALTER TABLE orders ADD COLUMN email TEXT;",
    NO_EMAIL,
  ],
  [
    "the same in shorthand",
    { tables: { name: "users", columns: { added: "email" } } },
    "ALTER TABLE users ADD COLUMN email TEXT;",
    "ALTER TABLE orders ADD COLUMN email TEXT;",
    NO_EMAIL,
  ],
  [
    "the users and permissions tables both dropped",
    { tables: { removed: { has_all: ["users", "permissions"] } } },
    "DROP TABLE users; DROP TABLE permissions;",
    "DROP TABLE users;",
  ],
  [
    "rows for admin and root removed",
    {
      rows: {
        removed: {
          has_all: [{ username: "admin" }, { username: "root", email: "root@example.com" }],
        },
      },
    },
    "DELETE FROM users WHERE id IN (11, 12);",
    "DELETE FROM users WHERE id = 11;",
  ],
  [
    "a row added with a non-null role",
    { rows: { added: "role" } },
    "INSERT INTO users (id, name, role) VALUES (20, 'x', 'guest');",
    "INSERT INTO users (id, name, role) VALUES (20, 'x', NULL);",
  ],
  [
    "two or more rows added with role admin or root",
    { rows: { added: { where: [{ role: { $in: ["admin", "root"] } }], $count: { $gte: 2 } } } },
    "INSERT INTO users (id, role) VALUES (20, 'admin'), (21, 'root');",
    "INSERT INTO users (id, role) VALUES (20, 'admin'), (21, 'user');",
  ],
  [
    "a changed status column",
    { rows: { changed: { has_one: ["status"] } } },
    "UPDATE users SET status = 'locked' WHERE id = 12;",
    "UPDATE users SET name = 'R' WHERE id = 12;",
  ],
  [
    "a role changed to admin or root",
    { rows: { changed: { where: [{ role: { $in: ["admin", "root"] } }] } } },
    "UPDATE users SET role = 'root' WHERE id = 11;",
    "UPDATE users SET role = 'editor' WHERE id = 11;",
  ],
  [
    "a role changed from manager to admin",
    { rows: { changed: { where: [{ $before: { role: "manager" }, $after: { role: "admin" } }] } } },
    "UPDATE users SET role = 'admin' WHERE id = 10;",
    "UPDATE users SET role = 'admin' WHERE id = 11;",
  ],
  [
    "the row with id 10 had its role changed to admin or root",
    {
      rows: {
        by_key: { id: 10 },
        changed: { where: [{ role: { $in: ["admin", "root"] } }] },
      },
    },
    "UPDATE users SET role = 'admin' WHERE id = 10;",
    "UPDATE users SET role = 'admin' WHERE id = 11;",
  ],
  [
    "a role changed to admin/root or permissions changed to all/full",
    {
      rows: {
        changed: {
          where: {
            $or: [{ role: { $in: ["admin", "root"] } }, { permissions: { $in: ["all", "full"] } }],
          },
        },
      },
    },
    // permissions has no role column: the $or still matches through permissions.
    "UPDATE permissions SET permissions = 'full' WHERE id = 2;",
    "UPDATE permissions SET permissions = 'write' WHERE id = 2; UPDATE users SET role = 'x';",
  ],
  [
    "one table named users, or an email column added",
    {
      $or: [{ tables: { name: { has_one: ["users"] } } }, {
        tables: { columns: { added: { has_one: ["email"] } } },
      }],
    },
    // Matches through its second selector: no users table, but an email column added.
    "ALTER TABLE orders ADD COLUMN email TEXT;",
    "ALTER TABLE orders ADD COLUMN note TEXT;",
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL);",
  ],
  [
    "Logical Operators: $and, $or and $not together",
    {
      $and: [{ rows: { changed: "role" } }],
      $or: [{ tables: { removed: "orders" } }, { rows: { added: "name" } }],
      $not: { tables: { removed: "users" } },
    },
    "UPDATE users SET role = 'x' WHERE id = 10; INSERT INTO users (id, name) VALUES (30, 'z');",
    "UPDATE users SET role = 'x' WHERE id = 10; INSERT INTO users (id) VALUES (30);",
  ],
];

describe("the spec's example selectors against real databases", () => {
  for (const [example, selector, matching, missing, base] of examples) {
    const options = base === undefined ? {} : { base };
    it(`${example}: matches`, async () => {
      const diff = await diffChange(matching, options);
      assert.equal(matchesDiff(diff, selector), true, explainMatch(diff, selector).text);
      assert.equal(explainMatch(diff, selector).matched, true);
    });
    it(`${example}: does not match`, async () => {
      const diff = await diffChange(missing, options);
      assert.equal(matchesDiff(diff, selector), false, explainMatch(diff, selector).text);
      assert.equal(explainMatch(diff, selector).matched, false);
    });
  }

  it("one table named users, or an email column added: an unchanged users table is enough", async () => {
    const selector = {
      $or: [{ tables: { name: { has_one: ["users"] } } }, {
        tables: { columns: { added: { has_one: ["email"] } } },
      }],
    };
    const diff = await diffChange("UPDATE orders SET total = 2;");
    assert.equal(diff.databases[0]!.tables.find((t) => t.name === "users")?.status, "unchanged");
    assert.equal(matchesDiff(diff, selector), true);
  });

  it("Databases: a database by name matches users.db and not accounts.db", async () => {
    const selector = { databases: { name: "users.db" } };
    const change = "UPDATE users SET name = 'x' WHERE id = 10;";
    assert.equal(matchesDiff(await diffChange(change), selector), true);
    assert.equal(matchesDiff(await diffChange(change, { name: "accounts.db" }), selector), false);
  });

  it("a deleted database matches by path, exists_before and exists_after", async () => {
    const deleted = await diffChange(null, { name: "db.sqlite" });
    const kept = await diffChange("DELETE FROM orders;", { name: "db.sqlite" });
    const selectorFor = (diff: DatabaseDiff) => ({
      databases: {
        path: diff.databases[0]!.path,
        exists_before: true,
        exists_after: false,
      },
    });
    assert.equal(matchesDiff(deleted, selectorFor(deleted)), true);
    assert.equal(matchesDiff(kept, selectorFor(kept)), false);
  });

  it("Selector Composition: an email column added within the users database", async () => {
    const selector = {
      databases: { name: "users" },
      tables: { columns: { added: { has_one: ["email"] } } },
    };
    const change = "ALTER TABLE orders ADD COLUMN email TEXT;";
    assert.equal(matchesDiff(await diffChange(change), selector), true);
    assert.equal(matchesDiff(await diffChange(change, { name: "shop.db" }), selector), false);
  });

  it("YAML Representations: password or password_hash changed", async () => {
    const selector = await readSelector(
      "selector:\n  rows:\n    changed:\n      has_one:\n        - password\n        - password_hash\n",
    );
    const hit = await diffChange("UPDATE users SET password_hash = 'h9' WHERE id = 12;");
    const miss = await diffChange("UPDATE users SET email = 'e@x' WHERE id = 12;");
    assert.equal(matchesDiff(hit, selector), true);
    assert.equal(matchesDiff(miss, selector), false);
  });

  it("compares integers beyond 2^53 exactly, as bigint", async () => {
    const sql = "CREATE TABLE big (id INTEGER PRIMARY KEY, n INTEGER);" +
      "INSERT INTO big VALUES (1, 9007199254740992);";
    const diff = await diffChange("UPDATE big SET n = 9007199254740993 WHERE id = 1;", {
      beforeSql: sql,
    });
    // The after copy also runs `sql`, so it holds the updated row.
    const t = diff.databases[0]!.tables.find((x) => x.name === "big")!;
    assert.equal(t.rows.changed[0]?.after["n"], 9007199254740993n);
    const at = (op: string, value: bigint | number) => ({
      rows: { changed: { where: { n: { [op]: value } } } },
    });
    assert.equal(matchesDiff(diff, at("$eq", 9007199254740993n)), true);
    assert.equal(matchesDiff(diff, at("$eq", 9007199254740992)), false);
    assert.equal(matchesDiff(diff, at("$gt", 9007199254740992)), true);
    assert.equal(matchesDiff(diff, at("$lte", 9007199254740992n)), false);
  });
});

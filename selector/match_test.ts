import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { DatabaseDiff } from "../lib/diff/types.ts";
import { database, diffOf, table } from "./_test_diff.ts";
import { explainMatch } from "./explain.ts";
import { CANNOT_TELL, matchesDiff } from "./match.ts";
import { CannotTellError } from "../lib/errors.ts";

const users = table("users", {
  changed: [
    {
      before: { id: 10, name: "bob", role: "manager", email: "b@x" },
      after: { id: 10, name: "bob", role: "admin", email: "b@x" },
    },
    {
      before: { id: 11, name: "al", role: "user", email: null },
      after: { id: 11, name: "al", role: "user", email: "al@x" },
    },
  ],
  added: [{ id: 12, name: "cy", role: "root", email: null }],
});
const orders = table("orders", { columns_added: ["note"] });
const logs = table("logs", { status: "removed", schema_status: "removed" });
const quiet = table("settings");
const app = database("app.db", [users, orders, logs, quiet]);
const other = database("data/other.sqlite", [
  table("items", { removed: [{ id: 1, name: "pen", price: 2 }] }),
]);
const DIFF = diffOf(app, other);
const NOTHING = diffOf(database("app.db", [table("users")]));
const SCHEMA_ONLY = diffOf(database("app.db", [table("users", { columns_added: ["email"] })]));
const DATA_ONLY = diffOf(database("app.db", [table("users", { added: [{ id: 1 }] })]));
const TRUNCATED = diffOf(database("big.db", [
  table("events", {
    added: [{ id: 1, kind: "a" }, { id: 2, kind: "b" }],
    counts: { added: 5000, removed: 0, changed: 0 },
    truncated: true,
  }),
]));

// [name, diff, selector, expected]
const PROTO_ROW = JSON.parse('{"id": 1, "constructor": "y", "__proto__": "z"}');
const PROTO_COLUMNS = diffOf(database("p.db", [table("t", { added: [PROTO_ROW] })]));

const cases: [string, DatabaseDiff, unknown, boolean | null][] = [
  // No scopes: something changed in the target planes.
  ["{} matches a diff with any change", DIFF, {}, true],
  ["{} does not match a diff without changes", NOTHING, {}, false],
  ["$not {} matches a diff without changes", NOTHING, { $not: {} }, true],
  ["target schema alone matches a schema change", SCHEMA_ONLY, { target: "schema" }, true],
  ["target schema alone ignores a data change", DATA_ONLY, { target: "schema" }, false],
  ["target data alone matches a data change", DATA_ONLY, { target: "data" }, true],
  ["target data alone ignores a schema change", SCHEMA_ONLY, { target: ["data"] }, false],
  ["a nested selector inherits target data", SCHEMA_ONLY, { target: "data", $or: [{}] }, false],
  ["a nested selector's own target wins", SCHEMA_ONLY, {
    target: "data",
    $or: [{ target: "schema" }],
  }, true],
  [
    "a database deleted is a change in the schema plane",
    diffOf(database("x.db", [], {
      exists_after: false,
      after_path: null,
      status: "removed",
    })),
    { target: "schema" },
    true,
  ],

  // databases narrows the databases.
  ["databases name matches without the extension", DIFF, { databases: { name: "app" } }, true],
  ["databases name matches with the extension", DIFF, { databases: { name: "app.db" } }, true],
  ["databases name matches the last part of a path", DIFF, {
    databases: { name: "other.sqlite" },
  }, true],
  ["databases name has_one matches any listed name", DIFF, {
    databases: { name: { has_one: ["nope", "other"] } },
  }, true],
  ["databases name must exist in the diff", DIFF, { databases: { name: "users" } }, false],
  ["databases path matches the before path", DIFF, { databases: { path: "/before/app.db" } }, true],
  ["databases path is normalised", DIFF, { databases: { path: "/work/./x/../app.db" } }, true],
  ["exists_after false needs a deleted database", DIFF, {
    databases: { exists_after: false },
  }, false],
  ["rows must hold in a selected database", DIFF, {
    databases: { name: "other" },
    rows: { added: "role" },
  }, false],
  ["rows hold in the selected database", DIFF, {
    databases: { name: "app" },
    rows: { added: "role" },
  }, true],

  // tables: table-level criteria and rows meet in one table.
  ["a table-level name matches an unchanged table", DIFF, { tables: { name: "settings" } }, true],
  ["a table-level name and status must hold together", DIFF, {
    tables: { name: "settings", status: "changed" },
  }, false],
  ["rows must hold in the table the table-level criteria picked", DIFF, {
    tables: { name: "orders" },
    rows: { changed: "role" },
  }, false],
  ["rows hold in the picked table", DIFF, {
    tables: { name: "users" },
    rows: { changed: "role" },
  }, true],
  ["columns and rows must be the same table", DIFF, {
    tables: { columns: { added: "note" } },
    rows: { added: "role" },
  }, false],
  ["database-level criteria look at the whole database", DIFF, {
    tables: { removed: "logs" },
    rows: { added: "role" },
  }, true],
  ["database-level has_all needs every table", DIFF, {
    tables: { removed: { has_all: ["logs", "users"] } },
  }, false],
  ["database-level changed sees the changed tables", DIFF, {
    tables: { changed: { has_all: ["users", "orders"] } },
  }, true],
  ["status reads the schema plane with target schema", DIFF, {
    target: "schema",
    tables: { name: "users", status: "changed" },
  }, false],
  ["status reads the data plane with target data", DIFF, {
    target: "data",
    tables: { name: "orders", status: "unchanged" },
  }, true],

  // rows: all given criteria hold in one table.
  ["added and removed must be in the same table", DIFF, {
    rows: { added: "role", removed: "price" },
  }, false],
  ["$and lets them be in different tables", DIFF, {
    $and: [{ rows: { added: "role" } }, { rows: { removed: "price" } }],
  }, true],
  ["rows {} matches any row change", DIFF, { rows: {} }, true],
  ["by_key alone matches a change to that key", DIFF, { rows: { by_key: { id: 11 } } }, true],
  ["by_key alone fails for an untouched key", DIFF, { rows: { by_key: { id: 99 } } }, false],
  ["by_key narrows the changed rows", DIFF, {
    rows: { by_key: { id: 11 }, changed: { where: { role: "admin" } } },
  }, false],
  ["by_key takes operators", DIFF, {
    rows: { by_key: { id: { $in: [10, 11] } }, changed: { where: { role: "admin" } } },
  }, true],
  ["by_key text does not match an integer key", DIFF, {
    rows: { by_key: { id: "10" }, changed: "role" },
  }, false],

  // changed rows.
  ["a changed column", DIFF, { rows: { changed: "email" } }, true],
  ["a list of changed columns must be in one row", DIFF, {
    rows: { changed: ["role", "email"] },
  }, false],
  ["has_all of changed columns may be in different rows", DIFF, {
    rows: { changed: { has_all: ["role", "email"] } },
  }, true],
  [
    "has_one of changed columns",
    DIFF,
    { rows: { changed: { has_one: ["password", "role"] } } },
    true,
  ],
  ["$changed_columns as an exact set", DIFF, {
    rows: { changed: { where: { $changed_columns: { $eq: ["email"] } } } },
  }, true],
  ["$changed_columns $not-in", DIFF, {
    rows: { changed: { where: { $changed_columns: { "$not-in": ["role", "email"] } } } },
  }, false],
  ["$before and $after together", DIFF, {
    rows: { changed: { where: { $before: { role: "manager" }, $after: { role: "admin" } } } },
  }, true],
  ["$before and $after must be the same row", DIFF, {
    rows: { changed: { where: { $before: { role: "manager" }, $after: { email: "al@x" } } } },
  }, false],
  [
    "$key in a where",
    DIFF,
    { rows: { changed: { where: { $key: { id: 11 }, email: "al@x" } } } },
    true,
  ],
  [
    "where reads the after values",
    DIFF,
    { rows: { changed: { where: { role: "manager" } } } },
    false,
  ],

  // where conditions naming missing columns.
  ["a condition on a missing column does not match", DIFF, {
    rows: { changed: { where: { permissions: { $in: ["all", "full"] } } } },
  }, false],
  ["$or spans schemas: the existing column decides", DIFF, {
    rows: {
      changed: {
        where: { $or: [{ role: { $in: ["admin", "root"] } }, { permissions: "all" }] },
      },
    },
  }, true],
  ["$not of a condition on a missing column holds", DIFF, {
    rows: { changed: { where: { $not: { permissions: "all" } } } },
  }, true],
  ["{col: null} matches SQL NULL", DIFF, { rows: { added: { has_one: [{ email: null }] } } }, true],
  ["{col: null} does not match a missing column", DIFF, {
    rows: { added: { has_one: [{ phone: null }] } },
  }, false],
  ["a where list needs every element", DIFF, {
    rows: { changed: { where: [{ role: "admin" }, { name: "al" }] } },
  }, false],

  // added and removed rows.
  ["an added column not NULL", DIFF, { rows: { added: "role" } }, true],
  ["an added column that is NULL", DIFF, { rows: { added: "email" } }, false],
  [
    "has_all templates over two different rows",
    diffOf(database("u.db", [
      table("users", {
        removed: [{ id: 1, username: "admin" }, {
          id: 2,
          username: "root",
          email: "root@example.com",
        }],
      }),
    ])),
    {
      rows: {
        removed: {
          has_all: [{ username: "admin" }, { username: "root", email: "root@example.com" }],
        },
      },
    },
    true,
  ],
  [
    "has_one with a single template",
    DIFF,
    { rows: { removed: { has_one: { name: "pen" } } } },
    true,
  ],
  ["has_one templates filtered by where", DIFF, {
    rows: { added: { where: { name: "cy" }, has_one: [{ role: "admin" }] } },
  }, false],

  // $count.
  ["$count without where counts every row of the kind", DIFF, {
    rows: { changed: { $count: 2 } },
  }, true],
  ["$count with where counts the matching rows", DIFF, {
    rows: { changed: { where: { role: "admin" }, $count: { $gte: 2 } } },
  }, false],
  ["$count $eq 0 holds for a table with no matching rows", DIFF, {
    tables: { name: "users" },
    rows: { removed: { $count: 0 } },
  }, true],
  ["$count without where uses the exact counts of a truncated table", TRUNCATED, {
    rows: { added: { $count: { $gte: 5000 } } },
  }, true],
  // A saved diff that kept 2 of 5000 added rows: what the others hold is unknown.
  ["$count with where cannot count the rows the diff did not keep", TRUNCATED, {
    rows: { added: { where: { kind: "a" }, $count: { $gt: 1 } } },
  }, null],
  ["$count with where: more than the kept rows could ever hold", TRUNCATED, {
    rows: { added: { where: { kind: "a" }, $count: { $gt: 5000 } } },
  }, false],
  ["$count with where: already more among the kept rows", TRUNCATED, {
    rows: { added: { where: { kind: { $in: ["a", "b"] } }, $count: { $gte: 2 } } },
  }, true],
  ["a where no kept row meets, on a cut table", TRUNCATED, {
    rows: { added: { where: { id: 4999 } } },
  }, null],
  ["its $not", TRUNCATED, { $not: { rows: { added: { where: { id: 4999 } } } } }, null],
  ["a where a kept row meets, on a cut table", TRUNCATED, {
    rows: { added: { where: { id: 2 } } },
  }, true],
  ["$or: a sure branch decides over one that cannot tell", TRUNCATED, {
    $or: [{ rows: { added: { where: { id: 4999 } } } }, { rows: { added: { where: { id: 1 } } } }],
  }, true],
  ["$and: a failing branch decides over one that cannot tell", TRUNCATED, {
    $and: [{ rows: { added: { where: { id: 4999 } } } }, { rows: { removed: "id" } }],
  }, false],
  ["has_all with one template among the kept rows only", TRUNCATED, {
    rows: { added: { has_all: [{ kind: "a" }, { kind: "z" }] } },
  }, null],
  ["has_all with every template among the kept rows", TRUNCATED, {
    rows: { added: { has_all: [{ kind: "a" }, { kind: "b" }] } },
  }, true],
  ["a table-level criterion no table meets decides over cut rows", TRUNCATED, {
    tables: { name: "users" },
    rows: { added: { where: { id: 4999 } } },
  }, false],
  // valibot drops these keys from parsed objects: a where on such a column
  // matched every row, as if it had no condition.
  ["a where on column constructor, which no table has", DIFF, {
    rows: { changed: { where: [{ constructor: "y" }] } },
  }, false],
  ["a where on column __proto__, which no table has", DIFF, {
    rows: { changed: { where: JSON.parse('[{"__proto__": "y"}]') } },
  }, false],
  ["a where on column prototype, which no table has", DIFF, {
    rows: { changed: { where: [{ prototype: { $in: ["y"] } }] } },
  }, false],
  ["a where on a real column named constructor", PROTO_COLUMNS, {
    rows: { added: { where: { constructor: "y" } } },
  }, true],
  ["a where on a real column named __proto__", PROTO_COLUMNS, {
    rows: { added: { where: JSON.parse('{"__proto__": "z"}') } },
  }, true],
  ["a where on a real column named constructor, another value", PROTO_COLUMNS, {
    rows: { added: { where: { constructor: "n" } } },
  }, false],
];

describe("matchesDiff()", () => {
  for (const [name, diff, selector, expected] of cases) {
    if (expected === null) {
      it(`cannot tell: ${name}`, () => {
        assert.throws(() => matchesDiff(diff, selector), CannotTellError);
      });
      continue;
    }
    it(`${expected ? "matches" : "does not match"}: ${name}`, () => {
      assert.equal(matchesDiff(diff, selector), expected);
    });
  }
});

describe("explainMatch()", () => {
  for (const [name, diff, selector, expected] of cases) {
    it(`agrees with matchesDiff() for ${name}`, () => {
      const explanation = explainMatch(diff, selector);
      assert.equal(explanation.matched, expected);
      assert.equal(
        explanation.text.split("\n")[0],
        expected === null ? CANNOT_TELL : expected ? "match" : "no match",
      );
      assert.ok(explanation.text.split("\n").length > 1, "no detail lines");
    });
  }
});

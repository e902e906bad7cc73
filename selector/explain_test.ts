import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { DatabaseDiff } from "../lib/diff/types.ts";
import { database, diffOf, table } from "./_test_diff.ts";
import { explainMatch } from "./explain.ts";

const DIFF = diffOf(database("users.db", [
  table("users", {
    changed: [
      { before: { id: 9, role: "user", name: "a" }, after: { id: 9, role: "user", name: "b" } },
      { before: { id: 10, role: "manager" }, after: { id: 10, role: "editor" } },
    ],
    added: [{ id: 12, role: "admin", email: "c@x" }],
  }),
  table("orders", { columns_added: ["note"] }),
]));

// Two tables with removed rows; only users has a role column.
const REMOVED = diffOf(database("shop.db", [
  table("users", {
    removed: [{ id: 2, role: null, name: "b" }, { id: 3, role: "y", name: "c" }],
  }),
  table("logs", { removed: [{ id: 1, msg: "m" }] }),
]));

// [name, diff, selector, the whole explanation]
const cases: [string, DatabaseDiff, unknown, string][] = [
  [
    "names a matched count's rows once (not 'removed 2 removed rows')",
    REMOVED,
    { tables: { name: "users" }, rows: { removed: { $count: 2 } } },
    `match
  shop.db > users > 2 removed rows (count = 2)`,
  ],
  [
    "reads a NULL condition as English (not 'has role is not NULL')",
    REMOVED,
    { rows: { removed: { where: [{ role: { "$not-eq": null }, name: "z" }] } } },
    `no match
  shop.db > users: no removed row has role not NULL and name = "z"; nearest: id=3: role "y" name "c"`,
  ],
  [
    "leaves out the near misses of tables without the selector's column",
    REMOVED,
    { rows: { removed: { where: [{ role: "admin" }] } } },
    `no match
  shop.db > users: no removed row has role = "admin"; nearest: id=2: role NULL`,
  ],
  [
    "says no changed table has the column when none has it",
    REMOVED,
    { rows: { removed: { where: [{ colour: "red" }] } } },
    `no match
  shop.db: no changed table has column colour (changed: users, logs)`,
  ],
  [
    "says 'no change', not 'no change in the both planes'",
    diffOf(database("same.db", [])),
    {},
    `no match
  same.db: no change`,
  ],
  [
    "names the nearest changed row when none matches the where",
    DIFF,
    { rows: { changed: { where: [{ role: { $in: ["admin", "root"] } }] } } },
    `no match
  users.db > users: no changed row has role in ["admin","root"]; nearest: id=10: role "manager" -> "editor"`,
  ],
  [
    "names the database, table and row key with the values of a match",
    DIFF,
    { rows: { added: { where: { role: "admin" } } } },
    `match
  users.db > users > added id=12: role "admin"`,
  ],
  [
    "says how many rows a $count saw",
    DIFF,
    { rows: { changed: { $count: { $gte: 3 } } } },
    `no match
  users.db > users: 2 changed rows, expected count >= 3`,
  ],
  [
    "says which table-level criteria no table met, with the tables' statuses",
    DIFF,
    { tables: { name: "users", columns: { added: "email" } } },
    `no match
  users.db: no table matches name "users" and added columns include "email" (tables: users changed, orders changed)`,
  ],
  [
    "says why a database was not selected",
    DIFF,
    { databases: { name: "shop" }, rows: { added: "role" } },
    `no match
  users.db: name is not "shop"`,
  ],
  [
    "says what the database-level criteria found",
    DIFF,
    { tables: { removed: { has_all: ["users", "permissions"] } } },
    `no match
  users.db: the removed tables do not include all of ["users","permissions"] (removed: none)`,
  ],
  [
    "explains each branch of a failed $or",
    DIFF,
    { $or: [{ rows: { removed: "role" } }, { tables: { name: "logs" } }] },
    `no match
  $or[0]: no match
    users.db: no table has removed rows
  $or[1]: no match
    users.db: no table matches name "logs" (tables: users changed, orders changed)`,
  ],
  [
    "explains a $not by what the inner selector matched",
    DIFF,
    { $not: { rows: { changed: "role" } } },
    `no match
  $not: the inner selector matches
    users.db > users > changed id=10: role "manager" -> "editor"`,
  ],
  [
    "names the template of has_all that no row matched",
    DIFF,
    { rows: { added: { has_all: [{ role: "admin" }, { role: "root" }] } } },
    `no match
  users.db > users: no added row has role = "root"; nearest: id=12: role "admin"`,
  ],
  [
    "says the diff is empty",
    diffOf(),
    {},
    `no match
  the diff has no databases`,
  ],
];

describe("explainMatch()", () => {
  for (const [name, diff, selector, text] of cases) {
    it(name, () => {
      const explanation = explainMatch(diff, selector);
      assert.equal(explanation.text, text);
      assert.equal(explanation.matched, text.startsWith("match"));
    });
  }
});

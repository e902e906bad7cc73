import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SelectorError } from "../lib/errors.ts";
import { parseSelector } from "./match.ts";

// [name, selector, JSON path of the mistake, words the message must contain]
const malformed: [string, unknown, string, string][] = [
  [
    "a typo in an operator is named with the nearest one",
    { rows: { changed: { where: [{ role: { $inn: ["admin", "root"] } }] } } },
    "rows.changed.where[0].role",
    `unknown operator "$inn"; did you mean "$in"?`,
  ],
  [
    "a typo in a scope key is named with the nearest key",
    { rows: { chnaged: "role" } },
    "rows",
    `unknown key "chnaged"; did you mean "changed"?`,
  ],
  [
    "a typo at the top level is named with the nearest key",
    { row: { added: "role" } },
    "",
    `unknown key "row"; did you mean "rows"?`,
  ],
  [
    "an unknown key far from every name lists the valid ones",
    { tables: { colour: "red" } },
    "tables",
    `unknown key "colour"; expected one of name, status, columns, added, removed, changed`,
  ],
  [
    "$and given an object instead of a list",
    { $and: { rows: { added: "role" } } },
    "$and",
    "expected a list of selectors, got an object",
  ],
  [
    "$or given an empty list",
    { $or: [] },
    "$or",
    "empty list; give at least one selector",
  ],
  [
    "$not given a list",
    { $not: [{ tables: { name: "users" } }] },
    "$not",
    "$not takes one selector",
  ],
  [
    "a nested selector's mistake has the full path",
    { $or: [{ tables: { name: "users" } }, { tables: { stauts: "added" } }] },
    "$or[1].tables",
    `did you mean "status"?`,
  ],
  ["an unknown target", { target: "scheme" }, "target", `did you mean "schema"?`],
  ["an empty target list", { target: [] }, "target", "empty list"],
  ["an unknown table status", { tables: { status: "chnged" } }, "tables.status", `"changed"`],
  [
    "a list where has_one or has_all must be said",
    { tables: { removed: ["users", "permissions"] } },
    "tables.removed",
    `say which: {"has_all": [...]}`,
  ],
  [
    "has_one and has_all together",
    { tables: { columns: { added: { has_one: ["a"], has_all: ["b"] } } } },
    "tables.columns.added",
    "give has_one or has_all, not both",
  ],
  [
    "exists_before given text",
    { databases: { exists_before: "yes" } },
    "databases.exists_before",
    `expected true or false, got text ("yes")`,
  ],
  [
    "a database name given a number",
    { databases: { name: 3 } },
    "databases.name",
    "expected a database name",
  ],
  [
    "an empty has_one list",
    { databases: { path: { has_one: [] } } },
    "databases.path.has_one",
    "empty list",
  ],
  [
    "a column compared with a list instead of $in",
    { rows: { added: { where: { role: ["admin", "root"] } } } },
    "rows.added.where.role",
    `use {"$in": [...]}`,
  ],
  [
    "an operator written without its $",
    { rows: { added: { where: { role: { in: ["admin"] } } } } },
    "rows.added.where.role",
    `unknown operator "in"; did you mean "$in"?`,
  ],
  [
    "an unknown operator at the level of a where object",
    { rows: { changed: { where: [{ $andd: [{ role: "x" }] }] } } },
    "rows.changed.where[0]",
    `did you mean "$and"?`,
  ],
  [
    "$in given one value",
    { rows: { changed: { where: { role: { $in: "admin" } } } } },
    "rows.changed.where.role.$in",
    "expected a list of values for $in",
  ],
  [
    "$gt given null",
    { rows: { changed: { where: { age: { $gt: null } } } } },
    "rows.changed.where.age.$gt",
    "cannot order NULL",
  ],
  [
    "an invalid regular expression",
    { rows: { added: { where: { email: { $regex: "([a-z" } } } } },
    "rows.added.where.email.$regex",
    "invalid regular expression",
  ],
  [
    "a regular expression that repeats a repeated group (catastrophic backtracking)",
    { rows: { changed: { where: { name: { $regex: "(a+)+$" } } } } },
    "rows.changed.where.name.$regex",
    "repeats a group that itself repeats",
  ],
  [
    "a nested repeat in $changed_columns",
    { rows: { changed: { where: { $changed_columns: { $regex: "(\\w+\\s?)*$" } } } } },
    "rows.changed.where.$changed_columns.$regex",
    "exponential time",
  ],
  [
    "an empty operator object",
    { rows: { added: { where: { role: {} } } } },
    "rows.added.where.role",
    "empty condition",
  ],
  [
    "$before in the where of added rows",
    { rows: { added: { where: { $before: { role: "x" } } } } },
    "rows.added.where.$before",
    "only for rows.changed",
  ],
  [
    "a negative $count",
    { rows: { added: { $count: { $gte: -1 } } } },
    "rows.added.$count.$gte",
    "a whole number of rows",
  ],
  [
    "$regex on a count",
    { rows: { removed: { $count: { $regex: "1" } } } },
    "rows.removed.$count.$regex",
    "$regex cannot compare a count",
  ],
  [
    "a has_one template of the wrong type",
    { rows: { added: { has_one: [true] } } },
    "rows.added.has_one[0]",
    "expected a column name, a list of column names, or an object",
  ],
  [
    "changed has_all given a column name instead of a list",
    { rows: { changed: { has_all: "role" } } },
    "rows.changed.has_all",
    "expected a list of column names",
  ],
  [
    "empty row criteria",
    { rows: { removed: {} } },
    "rows.removed",
    "empty row criteria",
  ],
  [
    "by_key given a number",
    { rows: { by_key: 10 } },
    "rows.by_key",
    "expected a where object",
  ],
  [
    "rows with target schema",
    { target: "schema", rows: { added: "role" } },
    "rows",
    `rows are in the data plane, but target is "schema"`,
  ],
  [
    "columns with target data",
    { target: ["data"], tables: { columns: { added: "email" } } },
    "tables.columns",
    "columns are in the schema plane",
  ],
  [
    "status added with target data",
    { target: "data", tables: { status: { has_one: ["added", "changed"] } } },
    "tables.status",
    `only "changed" or "unchanged"`,
  ],
  [
    "a nested selector inherits its parent's target",
    { target: "schema", $and: [{ rows: { added: "role" } }] },
    "$and[0].rows",
    "rows are in the data plane",
  ],
  [
    "a mistake under a top-level selector key is named from there",
    { selector: { rows: { changed: { has_one: ["password", 3] } } } },
    "selector.rows.changed.has_one[1]",
    "expected a column name, got a number (3)",
  ],
  [
    "MongoDB's $exists, with what to write instead",
    { rows: { added: { where: { email: { $exists: true } } } } },
    "rows.added.where.email",
    `unknown operator "$exists"; a where has no $exists; a row template of the column's name`,
  ],
  [
    "MongoDB's $nor, with what to write instead",
    { rows: { added: { where: { role: { $nor: ["a"] } } } } },
    "rows.added.where.role",
    `write {"$not": {"$or": [...]}}`,
  ],
  [
    "an operator near MongoDB's $ne, suggested as ours",
    { rows: { added: { where: { role: { $neq: "a" } } } } },
    "rows.added.where.role",
    `unknown operator "$neq"; did you mean "$not-eq"?`,
  ],
  [
    "an operator written with other case or an underscore",
    { rows: { added: { where: { role: { $NOT_IN: ["a"] } } } } },
    "rows.added.where.role",
    `unknown operator "$NOT_IN"; did you mean "$not-in"?`,
  ],
  [
    "an operator and its MongoDB name together",
    { rows: { added: { where: { role: { $ne: "a", "$not-eq": "b" } } } } },
    "rows.added.where.role",
    `"$ne" and "$not-eq" are the same operator; give one of them`,
  ],
  [
    "a comparison operator at the level of a where object",
    { rows: { added: { where: { $ne: "a" } } } },
    "rows.added.where",
    `unknown operator "$ne"; $ne compares a column's value; put it under the column`,
  ],
  [
    "a mistake in a MongoDB-named operand, named by our operator",
    { rows: { added: { where: { role: { $nin: "a" } } } } },
    "rows.added.where.role.$not-in",
    "expected a list of values for $not-in",
  ],
  ["a list instead of a selector", [], "", "expected a selector object, got a list"],
  ["text instead of a selector", "users.db", "", "expected a selector object, got text"],
];

describe("parseSelector() refuses malformed selectors", () => {
  for (const [name, input, path, words] of malformed) {
    it(`raises a SelectorError at the right path for ${name}`, () => {
      assert.throws(
        () => parseSelector(input),
        (error: unknown) => {
          assert.ok(error instanceof SelectorError, `not a SelectorError: ${String(error)}`);
          assert.equal(error.jsonPath, path);
          assert.ok(
            error.message.includes(words),
            `message ${JSON.stringify(error.message)} lacks ${JSON.stringify(words)}`,
          );
          if (path !== "") assert.ok(error.message.startsWith(`${path}: `));
          return true;
        },
      );
    });
  }
});

// [name, selector]
const valid: [string, unknown][] = [
  ["the empty selector", {}],
  ["a target list", { target: ["data", "schema"] }],
  ["a column that looks like an operator word", { rows: { added: { where: { in: 1 } } } }],
  ["a column name with a space", { rows: { added: { where: { "first name": "Ann" } } } }],
  ["null, booleans and bigints as values", {
    rows: { changed: { where: { a: null, b: true, c: 9007199254740993n } } },
  }],
  ["$changed_columns forms", {
    rows: {
      changed: {
        where: [
          { $changed_columns: "role" },
          { $changed_columns: ["role", "email"] },
          { $changed_columns: { $in: ["a"], "$not-eq": ["b"], $regex: "^pass" } },
        ],
      },
    },
  }],
  ["$key in added rows", { rows: { added: { where: { $key: { id: { $gte: 10 } } } } } }],
  ["a plain-number $count", { rows: { added: { $count: 2 } } }],
  ["every operator at once", {
    rows: {
      changed: {
        where: {
          x: {
            $eq: 1,
            "$not-eq": 2,
            $in: [1],
            "$not-in": [3],
            $gt: 0,
            $gte: 1,
            $lt: 5,
            $lte: 5,
            $regex: "1",
          },
        },
      },
    },
  }],
];

// [name, selector with MongoDB's names, the same selector with ours]
const mongo: [string, unknown, unknown][] = [
  [
    "$ne as $not-eq",
    { rows: { added: { where: { role: { $ne: "admin" } } } } },
    { rows: { added: { where: { role: { "$not-eq": "admin" } } } } },
  ],
  [
    "$nin as $not-in",
    { rows: { removed: { where: [{ id: { $nin: [1, 2], $gt: 0 } }] } } },
    { rows: { removed: { where: [{ id: { "$not-in": [1, 2], $gt: 0 } }] } } },
  ],
  [
    "$ne in a $count",
    { rows: { added: { $count: { $ne: 0 } } } },
    { rows: { added: { $count: { "$not-eq": 0 } } } },
  ],
  [
    "$nin in $changed_columns",
    { rows: { changed: { where: { $changed_columns: { $nin: ["password"] } } } } },
    { rows: { changed: { where: { $changed_columns: { "$not-in": ["password"] } } } } },
  ],
];

describe("parseSelector() reads MongoDB's operator names as ours", () => {
  for (const [name, input, ours] of mongo) {
    it(`reads ${name}`, () => {
      assert.deepEqual(parseSelector(input), ours);
    });
  }
});

describe("parseSelector() accepts valid selectors", () => {
  for (const [name, input] of valid) {
    it(`accepts ${name} and returns it unchanged`, () => {
      assert.deepEqual(parseSelector(input), input);
    });
  }
});

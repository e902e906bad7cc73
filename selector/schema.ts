/**
 * The selector's schema in valibot, and {@link validateSelector}, which turns
 * the first mistake into a {@link SelectorError} naming its JSON path (for a
 * typo, with the nearest valid name):
 * `rows.changed.where[0].role: unknown operator "$inn"; did you mean "$in"?`.
 *
 * Which key means what is in docs/selector.md; which plane a key needs is
 * checked when the selector is compiled (selector/match.ts).
 *
 * @module
 */
import * as v from "valibot";
import { SelectorError } from "../lib/errors.ts";
import {
  bool,
  dispatch,
  expected,
  fail,
  isPlainObject,
  keyed,
  list,
  optionalEntries,
  scalar,
  type Schema,
  text,
  word,
} from "./_schema_kit.ts";
import { formatPath, type PathKey } from "./_text.ts";
import {
  OPERATOR_ALIASES,
  OPERATOR_HINTS,
  OPERATOR_NAMES,
  OPERATORS,
  regexOperand,
} from "./operators.ts";
import type {
  ChangedColumnsCondition,
  ChangedRowsMatch,
  ColumnCondition,
  CountCondition,
  DatabasesScope,
  NameMatch,
  OperatorObject,
  RowsMatch,
  RowsScope,
  RowTemplate,
  Selector,
  SetMatch,
  StatusMatch,
  TablesScope,
  TableStatus,
  Target,
  Where,
  WhereObject,
} from "./types.ts";

/** The table statuses `status` accepts. */
export const TABLE_STATUSES: readonly TableStatus[] = ["added", "removed", "changed", "unchanged"];

const names = (what: string): Schema<string | string[]> =>
  dispatch<string | string[]>((input) =>
    Array.isArray(input)
      ? list(text("a name"), `a list of ${what}`, `give at least one ${what.replace(/s$/, "")}`)
      : typeof input === "string"
      ? v.string()
      : expected(`a ${what.replace(/s$/, "")} or a list of ${what}`, input)
  );

/** A name, or `{has_one: name | [names]}`. */
function nameMatch(what: string): Schema<NameMatch> {
  const hasOne = keyed<{ has_one: string | string[] }>(
    { has_one: names(`${what}s`) },
    { what: `{"has_one": [...]}`, emptyMessage: `empty object; give {"has_one": [...]}` },
  );
  return dispatch<NameMatch>((input) =>
    typeof input === "string"
      ? v.string()
      : isPlainObject(input)
      ? hasOne
      : expected(`a ${what} or {"has_one": [...]}`, input)
  );
}

/** A name, `{has_one: name | [names]}` or `{has_all: [names]}`. */
function setMatch(what: string): Schema<SetMatch> {
  const hasOne = keyed<{ has_one: string | string[] }>({ has_one: names(`${what}s`) }, {
    what: "an object",
  });
  const hasAll = keyed<{ has_all: string[] }>({
    has_all: list(text(`a ${what}`), `a list of ${what}s`, `give at least one ${what}`),
  }, { what: "an object" });
  const both = keyed<SetMatch>(optionalEntries({ has_one: v.unknown(), has_all: v.unknown() }), {
    what: "an object",
  });
  return dispatch<SetMatch>((input) => {
    if (typeof input === "string") return v.string();
    if (Array.isArray(input)) {
      return `expected a ${what}, {"has_one": [...]} or {"has_all": [...]}, got a list; ` +
        `say which: {"has_all": [...]} (every one) or {"has_one": [...]} (any one)`;
    }
    if (!isPlainObject(input)) {
      return expected(`a ${what}, {"has_one": [...]} or {"has_all": [...]}`, input);
    }
    if ("has_one" in input && "has_all" in input) return `give has_one or has_all, not both`;
    if ("has_one" in input) return hasOne;
    if ("has_all" in input) return hasAll;
    return Object.keys(input).length === 0
      ? `empty object; give {"has_one": [...]} or {"has_all": [...]}`
      : both;
  });
}

const statusWord = word(TABLE_STATUSES, "status");

function statusMatch(): Schema<StatusMatch> {
  const hasOne = keyed<{ has_one: TableStatus | TableStatus[] }>({
    has_one: dispatch<TableStatus | TableStatus[]>((input) =>
      Array.isArray(input)
        ? list(statusWord, "a list of statuses", "give at least one status")
        : statusWord
    ),
  }, { what: `{"has_one": [...]}`, emptyMessage: `empty object; give {"has_one": [...]}` });
  return dispatch<StatusMatch>((input) => isPlainObject(input) ? hasOne : statusWord);
}

/** Where the where clause is: which special keys it may use. */
type WhereContext = "changed" | "row" | "plain";

const operatorObject: Schema<OperatorObject> = keyed<OperatorObject>(
  optionalEntries(Object.fromEntries(OPERATOR_NAMES.map((n) => [n, OPERATORS[n].operand]))),
  {
    what: "an operator object",
    keyWord: "operator",
    emptyMessage: `empty condition; give a value or an operator such as {"$eq": ...}`,
    aliases: OPERATOR_ALIASES,
    hints: OPERATOR_HINTS,
  },
);

/**
 * At the level of a where object, a comparison operator has no column to
 * compare: say where it goes.
 */
const WHERE_HINTS: Readonly<Record<string, string>> = {
  ...OPERATOR_HINTS,
  ...Object.fromEntries(
    [...OPERATOR_NAMES, ...Object.keys(OPERATOR_ALIASES)].map((op) => [
      op,
      `${op} compares a column's value; put it under the column: {"role": {"${op}": ...}}`,
    ]),
  ),
};

/** What one column must hold: a value, or an operator object. */
export const columnCondition: Schema<ColumnCondition> = dispatch<ColumnCondition>((input) =>
  isPlainObject(input) ? operatorObject : scalar()
);

const changedColumns: Schema<ChangedColumnsCondition> = (() => {
  const cols = list(text("a column name"), "a list of column names", "give at least one column");
  const oneOrMany = dispatch<string | string[]>((input) => Array.isArray(input) ? cols : text());
  const ops = keyed<ChangedColumnsCondition>(
    optionalEntries({
      "$eq": oneOrMany,
      "$not-eq": oneOrMany,
      "$in": cols,
      "$not-in": cols,
      "$regex": regexOperand(),
    }),
    {
      what: "an operator object",
      keyWord: "operator",
      emptyMessage: `empty condition; give a column name, a list, or {"$in": [...]}`,
      aliases: OPERATOR_ALIASES,
    },
  );
  return dispatch<ChangedColumnsCondition>((input) =>
    isPlainObject(input) ? ops : Array.isArray(input) ? cols : text("a column name")
  );
})();

const onlyChanged = (key: string): Schema<never> =>
  fail(`${key} is only for rows.changed; an added or removed row has one set of values`);

function whereObjectOf(context: WhereContext): Schema<WhereObject> {
  const self: Schema<WhereObject> = v.lazy(() => whereObjectOf(context));
  const plain: Schema<WhereObject> = v.lazy(() => whereObjectOf("plain"));
  const conditions = list(self, "a list of where objects", "give at least one condition");
  const entries: Record<string, Schema<unknown>> = {
    "$and": conditions,
    "$or": conditions,
    "$not": dispatch((input) =>
      Array.isArray(input)
        ? `expected one where object, got a list; $not takes one condition (wrap several in $and)`
        : self
    ),
  };
  if (context !== "plain") entries["$key"] = plain;
  if (context === "changed") {
    entries["$before"] = plain;
    entries["$after"] = plain;
    entries["$changed_columns"] = changedColumns;
  } else if (context === "row") {
    for (const key of ["$before", "$after", "$changed_columns"]) entries[key] = onlyChanged(key);
  }
  return keyed<WhereObject, ColumnCondition>(optionalEntries(entries), {
    what: "a where object (column names mapped to conditions)",
    keyWord: "operator",
    rest: columnCondition,
    hints: WHERE_HINTS,
  });
}

const whereObjects: Record<WhereContext, Schema<WhereObject>> = {
  changed: whereObjectOf("changed"),
  row: whereObjectOf("row"),
  plain: whereObjectOf("plain"),
};

/** A plain where object: columns and `$and`/`$or`/`$not` (templates, by_key, `$before`). */
export const plainWhereObject: Schema<WhereObject> = whereObjects.plain;

function where(context: WhereContext): Schema<Where> {
  const one = whereObjects[context];
  const many = list(one, "a list of where objects", "give at least one condition");
  return dispatch<Where>((input) => Array.isArray(input) ? many : one);
}

const countCondition: Schema<CountCondition> = (() => {
  const entries: Record<string, Schema<unknown>> = {};
  for (const name of OPERATOR_NAMES) {
    entries[name] = OPERATORS[name].countOperand ?? fail(`${name} cannot compare a count`);
  }
  const ops = keyed<CountCondition>(optionalEntries(entries), {
    what: "a count comparison",
    keyWord: "operator",
    emptyMessage: `empty comparison; give one such as {"$gte": 2}`,
    aliases: OPERATOR_ALIASES,
  });
  return dispatch<CountCondition>((input) =>
    isPlainObject(input)
      ? ops
      : typeof input === "number" && Number.isInteger(input) && input >= 0
      ? v.number()
      : expected(`a count comparison such as {"$gte": 2}`, input)
  );
})();

const columnList = list(
  text("a column name"),
  "a list of column names",
  "give at least one column",
);

const rowTemplate: Schema<RowTemplate> = dispatch<RowTemplate>((input) =>
  typeof input === "string"
    ? v.string()
    : Array.isArray(input)
    ? columnList
    : isPlainObject(input)
    ? plainWhereObject
    : expected("a column name, a list of column names, or an object of column values", input)
);

const rowsMatch: Schema<RowsMatch> = (() => {
  const templates = list(rowTemplate, "a list of row templates", "give at least one row template");
  const criteria = keyed<RowsMatch>(
    optionalEntries({
      has_one: dispatch<RowTemplate | RowTemplate[]>((input) =>
        Array.isArray(input) ? templates : rowTemplate
      ),
      has_all: templates,
      where: where("row"),
      "$count": countCondition,
    }),
    {
      what: "row criteria",
      emptyMessage: "empty row criteria; give has_one, has_all, where or $count",
    },
  );
  return dispatch<RowsMatch>((input) =>
    typeof input === "string"
      ? v.string()
      : Array.isArray(input)
      ? columnList
      : isPlainObject(input)
      ? criteria
      : expected("a column name, a list of column names, or row criteria", input)
  );
})();

const changedRowsMatch: Schema<ChangedRowsMatch> = (() => {
  const criteria = keyed<ChangedRowsMatch>(
    optionalEntries({
      has_one: dispatch<string | string[]>((input) =>
        Array.isArray(input) ? columnList : text("a column name")
      ),
      has_all: columnList,
      where: where("changed"),
      "$count": countCondition,
    }),
    {
      what: "changed-row criteria",
      emptyMessage: "empty row criteria; give has_one, has_all, where or $count",
    },
  );
  return dispatch<ChangedRowsMatch>((input) =>
    typeof input === "string"
      ? v.string()
      : Array.isArray(input)
      ? columnList
      : isPlainObject(input)
      ? criteria
      : expected("a column name, a list of column names, or row criteria", input)
  );
})();

const databasesScope = keyed<DatabasesScope>(
  optionalEntries({
    name: nameMatch("database name"),
    path: nameMatch("database path"),
    exists_before: bool(),
    exists_after: bool(),
  }),
  { what: "a databases scope object" },
);

const tablesScope = keyed<TablesScope>(
  optionalEntries({
    name: nameMatch("table name"),
    status: statusMatch(),
    columns: keyed(
      optionalEntries({
        added: setMatch("column name"),
        changed: setMatch("column name"),
        removed: setMatch("column name"),
      }),
      { what: "a columns object with added, changed or removed" },
    ),
    added: setMatch("table name"),
    removed: setMatch("table name"),
    changed: setMatch("table name"),
  }),
  { what: "a tables scope object" },
);

const rowsScope = keyed<RowsScope>(
  optionalEntries({
    added: rowsMatch,
    removed: rowsMatch,
    changed: changedRowsMatch,
    by_key: plainWhereObject,
  }),
  { what: "a rows scope object" },
);

const targetWord = word(["data", "schema", "both"] as const, "target");
const target: Schema<Target> = dispatch<Target>((input) =>
  Array.isArray(input)
    ? list(targetWord, "a list of planes", "give data, schema or both")
    : targetWord
);

/** The whole selector. */
export const selectorSchema: Schema<Selector> = keyed<Selector>(
  optionalEntries({
    target,
    databases: databasesScope,
    tables: tablesScope,
    rows: rowsScope,
    "$and": list(v.lazy(() => selectorSchema), "a list of selectors", "give at least one selector"),
    "$or": list(v.lazy(() => selectorSchema), "a list of selectors", "give at least one selector"),
    "$not": dispatch((input) =>
      Array.isArray(input)
        ? "expected one selector, got a list; $not takes one selector (wrap several in $and)"
        : selectorSchema
    ),
  }),
  { what: "a selector object" },
);

/**
 * Validates a selector document's structure. A document whose only key is
 * `selector` (as a YAML file may have it) is unwrapped, and its errors are
 * named from there (`selector.rows...`).
 *
 * @param input the parsed JSON or YAML
 * @returns the selector, and the path it was found at
 * @throws {SelectorError} naming the JSON path of the first mistake
 */
export function validateSelectorAt(input: unknown): { selector: Selector; path: PathKey[] } {
  const path: PathKey[] = [];
  let body = input;
  if (isPlainObject(input) && Object.keys(input).length === 1 && "selector" in input) {
    path.push("selector");
    body = input["selector"];
  }
  const result = v.safeParse(selectorSchema, body, { abortEarly: true });
  if (result.success) return { selector: result.output, path };
  const issue = result.issues[0];
  const keys = (issue.path ?? []).map((item) =>
    typeof item.key === "number" ? item.key : String(item.key)
  );
  throw new SelectorError(formatPath([...path, ...keys]), issue.message);
}

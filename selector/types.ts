/**
 * The selector document as plain data, after validation. Key names keep the
 * documented spelling (`has_one`, `$not-eq`, `by_key`); docs/selector.md
 * describes what each one means.
 *
 * @module
 */

/**
 * A value a selector compares with: SQLite's values, plus booleans (1 and 0).
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { Scalar } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const role: Scalar = "admin";
 * matchesDiff(diff, { rows: { added: { where: { role } } } }); // true
 * ```
 */
export type Scalar = string | number | bigint | boolean | null;

/** A diff plane a selector can look at. */
export type Plane = "data" | "schema";

/**
 * `target`: one plane, both, or a list of them.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { Target } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const target: Target = "data"; // on the data plane a new table with rows is "changed"
 * matchesDiff(diff, { target, tables: { name: "users", status: "changed" } }); // true
 * ```
 */
export type Target = Plane | "both" | readonly (Plane | "both")[];

/**
 * A table's status in the diff.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { TableStatus } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const status: TableStatus = "added";
 * matchesDiff(diff, { tables: { name: "users", status } }); // true
 * ```
 */
export type TableStatus = "added" | "removed" | "changed" | "unchanged";

/**
 * A name, or `{has_one: name | [names]}`: equal to any of them.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { NameMatch } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const name: NameMatch = { has_one: ["accounts", "users"] };
 * matchesDiff(diff, { tables: { name } }); // true
 * ```
 */
export type NameMatch = string | { readonly has_one: string | readonly string[] };

/**
 * A status, or `{has_one: status | [statuses]}`.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { StatusMatch } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const status: StatusMatch = { has_one: ["removed", "changed"] };
 * matchesDiff(diff, { tables: { status } }); // false: both tables were added
 * ```
 */
export type StatusMatch = TableStatus | { readonly has_one: TableStatus | readonly TableStatus[] };

/**
 * Names that must appear in a set: one, any of several, or all of several.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { SetMatch } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const added: SetMatch = { has_all: ["users", "todos"] };
 * matchesDiff(diff, { tables: { added } }); // true
 * ```
 */
export type SetMatch =
  | string
  | { readonly has_one: string | readonly string[] }
  | { readonly has_all: readonly string[] };

/**
 * The comparison operators of a where clause.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { OperatorObject } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const privileged: OperatorObject = { $in: ["admin", "root"] };
 * matchesDiff(diff, { rows: { added: { where: { role: privileged } } } }); // true: dave is admin
 * ```
 */
export interface OperatorObject {
  readonly $eq?: Scalar;
  readonly "$not-eq"?: Scalar;
  readonly $in?: readonly Scalar[];
  readonly "$not-in"?: readonly Scalar[];
  readonly $gt?: number | bigint | string;
  readonly $gte?: number | bigint | string;
  readonly $lt?: number | bigint | string;
  readonly $lte?: number | bigint | string;
  readonly $regex?: string;
}

/**
 * What a column must hold: a value (equality) or operators (all must hold).
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { ColumnCondition } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const exampleEmail: ColumnCondition = { $regex: "@example\\.com$" };
 * matchesDiff(diff, { rows: { added: { where: { email: exampleEmail } } } }); // true
 * ```
 */
export type ColumnCondition = Scalar | OperatorObject;

/**
 * A condition on `$changed_columns`: a column, all of a list, or operators.
 *
 * @example
 * ```ts
 * import { explainMatch } from "./explain.ts";
 * import type { ChangedColumnsCondition } from "./types.ts";
 * import type { DatabaseDiff } from "../lib/diff/types.ts";
 * const diff: DatabaseDiff = {
 *   version: 1,
 *   settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
 *   databases: [],
 * };
 * // a changed row where only role changed
 * const onlyRole: ChangedColumnsCondition = { $eq: ["role"] };
 * explainMatch(diff, { rows: { changed: { where: { $changed_columns: onlyRole } } } }).matched; // false
 * ```
 */
export type ChangedColumnsCondition = string | readonly string[] | {
  readonly $eq?: string | readonly string[];
  readonly "$not-eq"?: string | readonly string[];
  readonly $in?: readonly string[];
  readonly "$not-in"?: readonly string[];
  readonly $regex?: string;
};

/** Any value a where object's key can take. */
export type WhereValue =
  | ColumnCondition
  | ChangedColumnsCondition
  | WhereObject
  | readonly WhereObject[];

/**
 * Column names mapped to conditions, and the special keys `$and`, `$or`,
 * `$not`, `$before`, `$after`, `$key`, `$changed_columns`. All keys must hold.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { WhereObject } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const activeManager: WhereObject = { role: "manager", active: 1 };
 * matchesDiff(diff, { rows: { added: { where: activeManager } } }); // true: alice
 * ```
 */
export interface WhereObject {
  readonly [key: string]: WhereValue;
}

/**
 * A where clause: one object, or a list of them (all must hold).
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { Where } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * // every object must hold for the same row
 * const where: Where = [{ $or: [{ role: "admin" }, { role: "root" }] }, { name: "dave" }];
 * matchesDiff(diff, { rows: { added: { where } } }); // true
 * ```
 */
export type Where = WhereObject | readonly WhereObject[];

/**
 * A `$count` condition: a number (equal to) or numeric operators.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { CountCondition } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const count: CountCondition = { $gte: 4 };
 * matchesDiff(diff, { tables: { name: "users" }, rows: { added: { $count: count } } }); // true: 4 rows
 * ```
 */
export type CountCondition = number | {
  readonly $eq?: number;
  readonly "$not-eq"?: number;
  readonly $in?: readonly number[];
  readonly "$not-in"?: readonly number[];
  readonly $gt?: number;
  readonly $gte?: number;
  readonly $lt?: number;
  readonly $lte?: number;
};

/**
 * A row template: a column (not NULL), columns (none NULL), or column values.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { RowTemplate } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const bob: RowTemplate = { name: "bob", role: "editor" };
 * matchesDiff(diff, { rows: { added: { has_one: bob } } }); // true
 * ```
 */
export type RowTemplate = string | readonly string[] | WhereObject;

/**
 * Criteria for added or removed rows.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { RowsMatch } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const removed: RowsMatch = "email"; // a removed row with a non-NULL email
 * matchesDiff(diff, { rows: { removed } }); // false: nothing was removed
 * ```
 */
export type RowsMatch = string | readonly string[] | {
  readonly has_one?: RowTemplate | readonly RowTemplate[];
  readonly has_all?: readonly RowTemplate[];
  readonly where?: Where;
  readonly $count?: CountCondition;
};

/**
 * Criteria for changed rows.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { ChangedRowsMatch } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const changed: ChangedRowsMatch = { has_one: ["password", "role"] };
 * matchesDiff(diff, { rows: { changed } }); // false: rows were only added
 * ```
 */
export type ChangedRowsMatch = string | readonly string[] | {
  readonly has_one?: string | readonly string[];
  readonly has_all?: readonly string[];
  readonly where?: Where;
  readonly $count?: CountCondition;
};

/**
 * The `databases` scope.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { DatabasesScope } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const created: DatabasesScope = { name: "users", exists_before: false };
 * matchesDiff(diff, { databases: created }); // true
 * ```
 */
export interface DatabasesScope {
  readonly name?: NameMatch;
  readonly path?: NameMatch;
  readonly exists_before?: boolean;
  readonly exists_after?: boolean;
}

/**
 * The `tables` scope: table-level (name, status, columns) and database-level criteria.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { TablesScope } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const tables: TablesScope = { name: "todos", status: "added" };
 * matchesDiff(diff, { tables }); // true
 * ```
 */
export interface TablesScope {
  readonly name?: NameMatch;
  readonly status?: StatusMatch;
  readonly columns?: {
    readonly added?: SetMatch;
    readonly changed?: SetMatch;
    readonly removed?: SetMatch;
  };
  readonly added?: SetMatch;
  readonly removed?: SetMatch;
  readonly changed?: SetMatch;
}

/**
 * The `rows` scope.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { RowsScope } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const rows: RowsScope = { by_key: { id: 4 }, added: { has_one: { role: "admin" } } };
 * matchesDiff(diff, { tables: { name: "users" }, rows }); // true: dave
 * ```
 */
export interface RowsScope {
  readonly added?: RowsMatch;
  readonly removed?: RowsMatch;
  readonly changed?: ChangedRowsMatch;
  readonly by_key?: WhereObject;
}

/**
 * A validated selector.
 *
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "../lib/diff/diff_sqlite.ts";
 * import { matchesDiff } from "./match.ts";
 * import type { Selector } from "./types.ts";
 * const diff = await diffSqliteDatabases(null, "examples/db_agent/users.db");
 * const noAdminAdded: Selector = { $not: { rows: { added: { where: { role: "admin" } } } } };
 * matchesDiff(diff, noAdminAdded); // false: dave was added as admin
 * ```
 */
export interface Selector {
  readonly target?: Target;
  readonly databases?: DatabasesScope;
  readonly tables?: TablesScope;
  readonly rows?: RowsScope;
  readonly $and?: readonly Selector[];
  readonly $or?: readonly Selector[];
  readonly $not?: Selector;
}

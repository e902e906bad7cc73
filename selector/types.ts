/**
 * The selector document as plain data, after validation. Key names keep the
 * spec's spelling (`has_one`, `$not-eq`, `by_key`); docs/selector.md
 * describes what each one means.
 *
 * @module
 */

/** A value a selector compares with: SQLite's values, plus booleans (1 and 0). */
export type Scalar = string | number | bigint | boolean | null;

/** A diff plane a selector can look at. */
export type Plane = "data" | "schema";

/** `target`: one plane, both, or a list of them. */
export type Target = Plane | "both" | readonly (Plane | "both")[];

/** A table's status in the diff. */
export type TableStatus = "added" | "removed" | "changed" | "unchanged";

/** A name, or `{has_one: name | [names]}`: equal to any of them. */
export type NameMatch = string | { readonly has_one: string | readonly string[] };

/** A status, or `{has_one: status | [statuses]}`. */
export type StatusMatch = TableStatus | { readonly has_one: TableStatus | readonly TableStatus[] };

/** Names that must appear in a set: one, any of several, or all of several. */
export type SetMatch =
  | string
  | { readonly has_one: string | readonly string[] }
  | { readonly has_all: readonly string[] };

/** The comparison operators of a where clause. */
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

/** What a column must hold: a value (equality) or operators (all must hold). */
export type ColumnCondition = Scalar | OperatorObject;

/** A condition on `$changed_columns`: a column, all of a list, or operators. */
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
 */
export interface WhereObject {
  readonly [key: string]: WhereValue;
}

/** A where clause: one object, or a list of them (all must hold). */
export type Where = WhereObject | readonly WhereObject[];

/** A `$count` condition: a number (equal to) or numeric operators. */
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

/** A row template: a column (not NULL), columns (none NULL), or column values. */
export type RowTemplate = string | readonly string[] | WhereObject;

/** Criteria for added or removed rows. */
export type RowsMatch = string | readonly string[] | {
  readonly has_one?: RowTemplate | readonly RowTemplate[];
  readonly has_all?: readonly RowTemplate[];
  readonly where?: Where;
  readonly $count?: CountCondition;
};

/** Criteria for changed rows. */
export type ChangedRowsMatch = string | readonly string[] | {
  readonly has_one?: string | readonly string[];
  readonly has_all?: readonly string[];
  readonly where?: Where;
  readonly $count?: CountCondition;
};

/** The `databases` scope. */
export interface DatabasesScope {
  readonly name?: NameMatch;
  readonly path?: NameMatch;
  readonly exists_before?: boolean;
  readonly exists_after?: boolean;
}

/** The `tables` scope: table-level (name, status, columns) and database-level criteria. */
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

/** The `rows` scope. */
export interface RowsScope {
  readonly added?: RowsMatch;
  readonly removed?: RowsMatch;
  readonly changed?: ChangedRowsMatch;
  readonly by_key?: WhereObject;
}

/** A validated selector. */
export interface Selector {
  readonly target?: Target;
  readonly databases?: DatabasesScope;
  readonly tables?: TablesScope;
  readonly rows?: RowsScope;
  readonly $and?: readonly Selector[];
  readonly $or?: readonly Selector[];
  readonly $not?: Selector;
}

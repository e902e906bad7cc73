/**
 * The small query model the SQL rules work on, independent of any one
 * parser's tree: statements and their kinds, every query level with its
 * sources (tables, CTE references, derived tables) and the predicates that
 * always apply there, function calls, locking and INTO clauses.
 *
 * `_from_node_sql_parser.ts` builds it from node-sql-parser's tree; another
 * parser can be added per dialect by building the same model.
 *
 * @module
 */

/**
 * A column reference: `o.store_id` is `{ table: "o", name: "store_id" }`; `*` is a star.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { ColumnRef } from "./query_model.ts";
 * const model = await parseSqlModel("SELECT o.store_id FROM orders o", "sqlite");
 * const column: ColumnRef | undefined = model.statements[0]?.columns[0];
 * column; // { table: "o", name: "store_id" }
 * ```
 */
export interface ColumnRef {
  /** The qualifier as written (an alias or a table name), or null. */
  readonly table: string | null;
  /** The column name, or `*`. */
  readonly name: string;
}

/**
 * A constant the SQL compares with: a string, number, boolean or bind parameter.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { SqlLiteral } from "./query_model.ts";
 * const model = await parseSqlModel("SELECT * FROM orders WHERE store_id = 's1'", "sqlite");
 * const value: SqlLiteral | undefined = model.statements[0]?.levels[0]?.predicates[0]?.values[0];
 * value; // { kind: "string", value: "s1" }
 * ```
 */
export interface SqlLiteral {
  readonly kind: "string" | "number" | "boolean" | "parameter";
  /** The value as the database sees it (strings unescaped), or the parameter's text. */
  readonly value: string;
}

/**
 * One FROM item of a query level.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { QuerySource } from "./query_model.ts";
 * const model = await parseSqlModel("SELECT * FROM main.orders AS o", "sqlite");
 * const source: QuerySource | undefined = model.statements[0]?.levels[0]?.sources[0];
 * source; // { kind: "table", name: "orders", schema: "main", alias: "o" }
 * ```
 */
export interface QuerySource {
  /** `table` (a real table or view), `cte` (a WITH name), `derived` (a subquery) or `function`. */
  readonly kind: "table" | "cte" | "derived" | "function";
  /** The table or CTE name (empty for a derived table or function). */
  readonly name: string;
  /** The schema or database qualifier, or null. */
  readonly schema: string | null;
  /** The alias, or null. */
  readonly alias: string | null;
}

/**
 * A conjunct that always applies at its level and compares one column with
 * constants: `col = 'x'` or `col IN ('x', 'y')`. Other conjuncts (ranges,
 * LIKE, comparisons between columns) are not kept: no rule needs them.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { QueryPredicate } from "./query_model.ts";
 * const sql = "SELECT * FROM orders WHERE status IN ('NEW', 'PAID') AND amount > 10";
 * const model = await parseSqlModel(sql, "sqlite");
 * // `amount > 10` is a range, which is not kept
 * const predicates: readonly QueryPredicate[] | undefined = model.statements[0]?.levels[0]?.predicates;
 * predicates?.map((p) => `${p.column.name} ${p.operator} ${p.values.length}`); // ["status IN 2"]
 * ```
 */
export interface QueryPredicate {
  readonly column: ColumnRef;
  readonly operator: "=" | "IN";
  readonly values: readonly SqlLiteral[];
  /**
   * The sources (indexes into the level's sources) whose rows it constrains:
   * `all` for WHERE and inner-join ON; the right side of a LEFT JOIN ON; the
   * left side of a RIGHT JOIN ON; none for FULL JOIN ON.
   */
  readonly appliesTo: "all" | readonly number[];
  /** Where it was written. HAVING counts only on a GROUP BY column. */
  readonly clause: "where" | "on" | "having";
}

/**
 * One SELECT (or the body of a write): a branch of a set operation, a CTE, a subquery.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { QueryLevel } from "./query_model.ts";
 * const sql = "SELECT * FROM orders WHERE customer_id IN (SELECT id FROM customers)";
 * const model = await parseSqlModel(sql, "sqlite");
 * const levels: readonly QueryLevel[] | undefined = model.statements[0]?.levels;
 * levels?.map((l) => l.origin); // ["statement", "subquery"]
 * levels?.[1]?.parent; // 0
 * ```
 */
export interface QueryLevel {
  readonly id: number;
  /** The enclosing level, or null for a statement's top level. */
  readonly parent: number | null;
  readonly origin: "statement" | "cte" | "derived" | "subquery" | "set-branch";
  readonly sources: readonly QuerySource[];
  readonly predicates: readonly QueryPredicate[];
  /** Explicit JOINs plus comma joins. */
  readonly joins: number;
}

/**
 * One statement of the SQL text.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { SqlStatement } from "./query_model.ts";
 * const sql = "WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT count(*) AS n FROM big";
 * const model = await parseSqlModel(sql, "sqlite");
 * const statement: SqlStatement | undefined = model.statements[0];
 * statement?.kind; // "select"
 * statement?.ctes; // ["big"]
 * statement?.functions; // ["count"]
 * ```
 */
export interface SqlStatement {
  /** The statement kind in lower case: select, insert, update, delete, create, drop, set, ... */
  readonly kind: string;
  /** Every query level; index 0 is the statement itself. */
  readonly levels: readonly QueryLevel[];
  /** Statements of another kind nested inside it, e.g. `delete` in a CTE. */
  readonly nested: readonly string[];
  /** Called function names in lower case, bare and schema-qualified (`pg_catalog.pg_sleep`). */
  readonly functions: readonly string[];
  /** Locking clauses, e.g. `FOR UPDATE`, `LOCK IN SHARE MODE`. */
  readonly locking: readonly string[];
  /** INTO clauses, e.g. `INTO newt`, `INTO OUTFILE`. */
  readonly into: readonly string[];
  /** Every column reference, in any clause. */
  readonly columns: readonly ColumnRef[];
  /** Names the statement itself defines: select-list aliases and CTE column names. */
  readonly outputNames: readonly string[];
  /** WITH names. */
  readonly ctes: readonly string[];
  /** UNION / INTERSECT / EXCEPT operators. */
  readonly setOperations: number;
  /**
   * Every constant the statement holds, in any clause (in no set order):
   * strings (unescaped), numbers, booleans, bind parameters.
   */
  readonly constants: readonly SqlLiteral[];
}

/**
 * A parsed SQL text: one entry per statement.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import type { QueryModel } from "./query_model.ts";
 * const model: QueryModel = await parseSqlModel("SELECT 1; DELETE FROM orders", "sqlite");
 * model.statements.map((s) => s.kind); // ["select", "delete"]
 * ```
 */
export interface QueryModel {
  readonly dialect: string;
  readonly statements: readonly SqlStatement[];
}

/**
 * A table reference with the level it belongs to.
 *
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import { type TableRef, tableRefs } from "./query_model.ts";
 * const model = await parseSqlModel("SELECT * FROM orders o JOIN items i ON i.order_id = o.id", "sqlite");
 * const refs: TableRef[] = tableRefs(model.statements[0]!);
 * refs.map((t) => `${t.name} ${t.alias} ${t.index}`); // ["orders o 0", "items i 1"]
 * ```
 */
export interface TableRef extends QuerySource {
  readonly kind: "table";
  readonly level: QueryLevel;
  /** Its index in the level's sources. */
  readonly index: number;
}

/**
 * Every reference to a real table (CTE names, derived tables excluded).
 *
 * @param statement a statement of the model
 * @returns the references, in order
 * @example
 * ```ts
 * import { parseSqlModel } from "./_parse.ts";
 * import { tableRefs } from "./query_model.ts";
 * const model = await parseSqlModel("SELECT 1 FROM orders o", "sqlite");
 * tableRefs(model.statements[0]!).map((t) => t.alias); // ["o"]
 * ```
 */
export function tableRefs(statement: SqlStatement): TableRef[] {
  const refs: TableRef[] = [];
  for (const level of statement.levels) {
    level.sources.forEach((source, index) => {
      if (source.kind === "table") refs.push({ ...source, kind: "table", level, index });
    });
  }
  return refs;
}

/**
 * Renders a list the way the documented messages print it (a Python list repr):
 * `['orders', 'items']`.
 *
 * @param items the strings
 * @returns the text
 * @example
 * ```ts
 * import { pyList } from "./query_model.ts";
 * pyList(["orders"]); // "['orders']"
 * ```
 */
export function pyList(items: readonly string[]): string {
  const repr = (s: string): string =>
    s.includes("'") && !s.includes('"')
      ? `"${s}"`
      : `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  return `[${items.map(repr).join(", ")}]`;
}

/**
 * Lower case for ASCII letters only, as SQL engines fold names (JavaScript's
 * toLowerCase also folds the Kelvin sign to `k`, which no database does).
 *
 * @param name an identifier
 * @returns the folded name
 * @example
 * ```ts
 * import { foldAscii } from "./query_model.ts";
 * foldAscii("Orders"); // "orders"
 * ```
 */
export function foldAscii(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

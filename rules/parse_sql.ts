/**
 * The query model of SQL text, for code outside the rules (a counterexample
 * search, a report): the same parse the SQL rules read.
 *
 * @module
 */
import { parseSqlModel } from "./_parse.ts";
import type { QueryModel } from "./query_model.ts";

/**
 * Parses SQL text into the {@link QueryModel} the SQL rules read: per
 * statement its kind, tables (`tableRefs`), columns, functions, WITH names,
 * the predicates that always apply, and every constant. PostgreSQL SQL is
 * read by PostgreSQL's own parser, the other dialects by node-sql-parser.
 *
 * @param sql the SQL text (one or more statements)
 * @param dialect `sqlite` (default), `postgres`, `mysql`, ... (see `DIALECTS`)
 * @returns the model
 * @throws Error when no parser here can read the text (the message says where and why)
 * @example
 * ```ts
 * import { parseSql, tableRefs } from "../mod.ts";
 * const model = await parseSql("SELECT name FROM users u WHERE u.age > 30 AND u.city = 'Oslo'");
 * const statement = model.statements[0]!;
 * tableRefs(statement).map((t) => t.name); // ["users"]
 * statement.columns.map((c) => c.name); // ["age", "city", "name"] (WHERE is read first)
 * statement.constants.map((c) => c.value).sort(); // ["30", "Oslo"]
 * ```
 */
export function parseSql(sql: string, dialect = "sqlite"): Promise<QueryModel> {
  return parseSqlModel(sql, dialect);
}

/**
 * Parses SQL into the {@link QueryModel}, once per trace: every SQL rule of a
 * run asks here, and a WeakMap keyed by the trace shares one parse (a
 * promise, so rules running at the same time share it too). The parser of a
 * dialect is loaded on first use: each node-sql-parser dialect build is
 * 200-300 kB, the full build 2.5 MB.
 *
 * @module
 */
import type { Trace } from "../lib/eval/trace.ts";
import { doubleSubqueryParens, scanSql } from "./_lex.ts";
import { buildStatement } from "./_from_node_sql_parser.ts";
import { buildPgStatement } from "./_from_pg_query.ts";
import { loadPgQuery, pgParse, PgSyntaxError } from "./_pg_query.ts";
import type { QueryModel } from "./query_model.ts";
import { type Dialect, toDialect } from "./dialect.ts";

interface SqlParser {
  astify(sql: string, options: { database: string }): unknown;
}
type ParserModule = { Parser?: new () => SqlParser; default?: { Parser?: new () => SqlParser } };

// One literal import per dialect, so `bun build --compile` bundles each.
const LOADERS: Record<Dialect, () => Promise<unknown>> = {
  sqlite: () => import("./_parsers/sqlite.ts").then((m) => m.parser),
  postgres: () => import("./_parsers/postgresql.ts").then((m) => m.parser),
  mysql: () => import("./_parsers/mysql.ts").then((m) => m.parser),
  mariadb: () => import("./_parsers/mariadb.ts").then((m) => m.parser),
  bigquery: () => import("./_parsers/bigquery.ts").then((m) => m.parser),
  db2: () => import("./_parsers/db2.ts").then((m) => m.parser),
  hive: () => import("./_parsers/hive.ts").then((m) => m.parser),
  redshift: () => import("./_parsers/redshift.ts").then((m) => m.parser),
  snowflake: () => import("./_parsers/snowflake.ts").then((m) => m.parser),
  transactsql: () => import("./_parsers/transactsql.ts").then((m) => m.parser),
  trino: () => import("./_parsers/trino.ts").then((m) => m.parser),
  athena: () => import("./_parsers/athena.ts").then((m) => m.parser),
  flinksql: () => import("./_parsers/flinksql.ts").then((m) => m.parser),
  noql: () => import("./_parsers/noql.ts").then((m) => m.parser),
};

/** The `database` option node-sql-parser wants for a dialect. */
const DATABASE: Partial<Record<Dialect, string>> = { postgres: "postgresql" };

const parsers = new Map<Dialect, Promise<SqlParser>>();

/**
 * Loads (once) the parser of a dialect.
 *
 * @param dialect the dialect
 * @returns the parser
 */
export function loadParser(dialect: Dialect): Promise<SqlParser> {
  let p = parsers.get(dialect);
  if (p === undefined) {
    p = LOADERS[dialect]().then((m) => {
      const mod = m as ParserModule;
      const Parser = mod.Parser ?? mod.default?.Parser;
      if (Parser === undefined) {
        throw new Error(`node-sql-parser build for ${dialect} has no Parser`);
      }
      return new Parser();
    });
    parsers.set(dialect, p);
  }
  return p;
}

/** SQL the rules could not read: the reason, for the finding's detail. */
export class UnreadableSql extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableSql";
  }
}

/**
 * Loads (once) what reads a dialect: PostgreSQL's own parser for `postgres`,
 * node-sql-parser's build for the others.
 *
 * @param dialect the dialect
 */
export async function loadDialect(dialect: Dialect): Promise<void> {
  if (dialect === "postgres") await loadPgQuery();
  else await loadParser(dialect);
}

/**
 * Parses SQL text into the query model, without caching.
 *
 * @param sql the SQL text (one or more statements)
 * @param dialect the dialect
 * @returns the model
 * @throws UnreadableSql when the parser cannot read it, or cannot read it safely
 */
export async function parseSqlModel(sql: string, dialect: Dialect | string): Promise<QueryModel> {
  const d = toDialect(dialect);
  if (d === "postgres") return parsePostgres(sql);
  const parser = await loadParser(d);
  const scan = scanSql(sql, d);
  if (!scan.ok) throw new UnreadableSql(`cannot read the SQL safely: ${scan.problem}`);
  let ast: unknown;
  const options = { database: DATABASE[d] ?? d };
  try {
    ast = parser.astify(scan.text, options);
  } catch (e) {
    // node-sql-parser misreads `(SELECT (c) FROM t) - 1`; doubled
    // parentheses around each subquery read the same query.
    const retry = scan.subqueries.length === 0
      ? undefined
      : attempt(() => parser.astify(doubleSubqueryParens(scan.text, scan.subqueries), options));
    if (retry === undefined) {
      throw new UnreadableSql(`cannot parse the SQL as ${d}${where(e)}: ${shorten(errorText(e))}`);
    }
    ast = retry.value;
  }
  const list = (Array.isArray(ast) ? ast : [ast]).filter((s) =>
    typeof s === "object" && s !== null
  );
  try {
    const statements = list.map((s) =>
      buildStatement(s, {
        dialect: d,
        backslashes: scan.backslashes,
        parenthesizedWith: scan.parenthesizedWith,
      })
    );
    return { dialect: d, statements };
  } catch (e) {
    throw new UnreadableSql(`cannot read the SQL: ${errorText(e)}`);
  }
}

/**
 * PostgreSQL's own grammar reads the text exactly as the server will, so no
 * pre-scan is needed: strings, comments, dollar quotes and escapes are the
 * server's.
 */
async function parsePostgres(sql: string): Promise<QueryModel> {
  const wasm = await loadPgQuery();
  if (sql.trim() === "") return { dialect: "postgres", statements: [] };
  let stmts;
  try {
    stmts = pgParse(wasm, sql);
  } catch (e) {
    if (!(e instanceof PgSyntaxError)) throw e;
    const before = sql.slice(0, e.position).split("\n");
    const at = `line ${before.length}, column ${before.at(-1)!.length + 1}`;
    throw new UnreadableSql(`cannot parse the SQL as postgres (${at}): ${e.message}`);
  }
  try {
    const statements = stmts.map((s) => buildPgStatement(s.stmt));
    return { dialect: "postgres", statements };
  } catch (e) {
    throw new UnreadableSql(`cannot read the SQL: ${errorText(e)}`);
  }
}

/** ` (line 1, column 32)` from a peggy error's location, when it has one. */
function where(e: unknown): string {
  const start = (e as { location?: { start?: { line?: unknown; column?: unknown } } })?.location
    ?.start;
  if (typeof start?.line !== "number" || typeof start.column !== "number") return "";
  return ` (line ${start.line}, column ${start.column})`;
}

function attempt<T>(f: () => T): { value: T } | undefined {
  try {
    return { value: f() };
  } catch {
    return undefined;
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Parser messages list every expected token; keep the start and the "but X found" end. */
function shorten(message: string): string {
  if (message.length <= 160) return message;
  const found = /but (.*) found\.?$/.exec(message);
  const tail = found !== null ? ` ... but ${found[1]} found` : " ...";
  return message.slice(0, 80).replace(/,[^,]*$/, "") + tail;
}

const byTrace = new WeakMap<Trace, Map<string, Promise<QueryModel>>>();

/**
 * The query model of one SQL text of a trace, parsed once per trace and
 * dialect and shared by every rule that asks.
 *
 * @param trace the trace the SQL comes from
 * @param sql the SQL text
 * @param dialect the dialect
 * @returns the model (a shared promise)
 */
export function traceSqlModel(trace: Trace, sql: string, dialect: Dialect): Promise<QueryModel> {
  let forTrace = byTrace.get(trace);
  if (forTrace === undefined) {
    forTrace = new Map();
    byTrace.set(trace, forTrace);
  }
  const key = `${dialect}\u0000${sql}`;
  let model = forTrace.get(key);
  if (model === undefined) {
    model = parseSqlModel(sql, dialect);
    forTrace.set(key, model);
  }
  return model;
}

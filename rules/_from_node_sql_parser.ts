/**
 * Builds the {@link QueryModel} from node-sql-parser's tree.
 *
 * The tree differs by dialect build (a column is `"a"` in sqlite and mysql,
 * `{ expr: { type: "default", value: "a" } }` in postgresql; a subquery is
 * `{ ast: { type: "select", ... } }` wrapped in an expression list), so the
 * walker reads names through {@link identName} and finds subqueries by
 * shape, anywhere, rather than by the clause they sit in.
 *
 * @module
 */
import type { Backslashes } from "./_lex.ts";
import { markLegacyStrings } from "./_legacy_strings.ts";
import { unescapeLiteral } from "./_lex.ts";
import {
  type ColumnRef,
  foldAscii,
  type QueryLevel,
  type QueryPredicate,
  type QuerySource,
  type SqlLiteral,
  type SqlStatement,
} from "./query_model.ts";
import {
  asList,
  columnOf,
  conjuncts,
  functionNames,
  groupColumns,
  identName,
  isNode,
  isSqlite,
  isStatementKind,
  type Node,
  sameColumn,
  targetItems,
} from "./_nsp_tree.ts";

const SELECT = "select";

/** Keys the select walker handles itself; every other key is walked for expressions. */
const SELECT_KEYS = new Set(["with", "from", "where", "having", "_next", "set_op", "type"]);

/** Options of one build. */
export interface BuildOptions {
  readonly dialect: string;
  readonly backslashes: Backslashes;
  /** The text has `(WITH`: a WITH on a set-operation branch may cover only that branch. */
  readonly parenthesizedWith?: boolean;
}

/**
 * Builds one statement's model from its node-sql-parser tree.
 *
 * @param ast one statement's tree
 * @param options the dialect and how to read string literals
 * @returns the statement
 */
export function buildStatement(ast: unknown, options: BuildOptions): SqlStatement {
  const b = new Builder(options);
  const node = isNode(ast) ? ast : {};
  const kind = String(node["type"] ?? "unknown").toLowerCase();
  if (isSqlite(options.dialect)) markLegacyStrings(node);
  b.visitStatement(node, null, "statement", new Set());
  return {
    kind,
    levels: b.levels,
    nested: b.nested,
    functions: b.functions,
    locking: b.locking,
    into: b.into,
    columns: b.columns,
    outputNames: b.outputNames,
    ctes: b.ctes,
    setOperations: b.setOperations,
    constants: b.constants,
  };
}

interface MutableLevel {
  id: number;
  parent: number | null;
  origin: QueryLevel["origin"];
  sources: QuerySource[];
  predicates: QueryPredicate[];
  joins: number;
}

class Builder {
  readonly levels: MutableLevel[] = [];
  readonly nested: string[] = [];
  readonly functions: string[] = [];
  readonly locking: string[] = [];
  readonly into: string[] = [];
  readonly columns: ColumnRef[] = [];
  readonly outputNames: string[] = [];
  readonly ctes: string[] = [];
  readonly constants: SqlLiteral[] = [];
  setOperations = 0;
  readonly #options: BuildOptions;
  #depth = 0;

  constructor(options: BuildOptions) {
    this.#options = options;
  }

  /** Any statement node: a SELECT, or a write/DDL/utility statement. */
  visitStatement(
    node: Node,
    parent: number | null,
    origin: QueryLevel["origin"],
    scope: ReadonlySet<string>,
  ): void {
    const kind = String(node["type"] ?? "unknown").toLowerCase();
    if (kind === SELECT) return this.visitSelect(node, parent, origin, scope);
    if (parent !== null || origin !== "statement") this.nested.push(kind);
    const level = this.#newLevel(parent, origin);
    this.#addSources(level, targetItems(kind, node), scope);
    if (kind === "update" || kind === "delete") {
      for (const c of conjuncts(node["where"])) this.#addPredicate(level, c, "all", "where");
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "type" || key === "table" || key === "from") continue;
      this.walk(value, level.id, scope);
    }
  }

  visitSelect(
    node: Node,
    parent: number | null,
    origin: QueryLevel["origin"],
    outerScope: ReadonlySet<string>,
  ): void {
    const scope = new Set(outerScope);
    const level = this.#newLevel(parent, origin);
    for (const w of asList(node["with"])) {
      if (!isNode(w)) continue;
      const name = (identName(w["name"]) ?? "").toLowerCase();
      this.ctes.push(name);
      for (const c of asList(w["columns"])) {
        const n = identName(c);
        if (n !== null) this.outputNames.push(n);
      }
      const keys = cteKeys(w["name"], this.#options.dialect);
      // A recursive CTE sees its own name; a plain one sees only earlier ones.
      if (w["recursive"] === true || node["recursive"] === true) keys.forEach((k) => scope.add(k));
      const stmt = w["stmt"];
      const body = isNode(stmt) && isNode(stmt["ast"]) ? stmt["ast"] : stmt;
      if (isNode(body)) this.visitStatement(body, level.id, "cte", scope);
      keys.forEach((k) => scope.add(k));
    }
    this.#addSources(level, asList(node["from"]), scope);
    for (const c of conjuncts(node["where"])) this.#addPredicate(level, c, "all", "where");
    this.walk(node["where"], level.id, scope);
    const groupBy = groupColumns(node["groupby"], this.#options.dialect);
    for (const c of conjuncts(node["having"])) {
      const p = this.#predicateOf(c, "all", "having");
      if (p !== null && groupBy.some((g) => sameColumn(g, p.column))) level.predicates.push(p);
    }
    this.walk(node["having"], level.id, scope);
    const lock = node["locking_read"] ?? node["for_update"];
    if (lock !== undefined && lock !== null && lock !== "") {
      this.locking.push(typeof lock === "string" ? lock : JSON.stringify(lock));
    }
    const into = node["into"];
    if (isNode(into) && (into["expr"] !== undefined || into["keyword"] !== undefined)) {
      const target = identName(into["expr"]) ?? "";
      this.into.push(`INTO ${into["keyword"] ?? ""} ${target}`.replace(/\s+/g, " ").trim());
    }
    for (const col of asList(node["columns"])) {
      if (isNode(col) && col["as"] !== undefined && col["as"] !== null) {
        const n = identName(col["as"]);
        if (n !== null) this.outputNames.push(n);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (SELECT_KEYS.has(key) || key === "locking_read" || key === "for_update") continue;
      if (key === "into") continue;
      this.walk(value, level.id, scope);
    }
    const next = node["_next"];
    if (isNode(next)) {
      this.setOperations++;
      // `(WITH o ... SELECT ...) UNION SELECT ... FROM o`: the parser's tree is
      // that of the unparenthesized form; when the text may be this one, the
      // later branches do not see this branch's WITH names.
      const ownWith = asList(node["with"]).length > 0 && this.#options.parenthesizedWith === true;
      const branchScope = ownWith ? outerScope : scope;
      this.visitStatement(
        next,
        parent,
        origin === "statement" ? "set-branch" : origin,
        branchScope,
      );
    }
  }

  /** Walks an expression tree for columns, functions and nested queries. */
  walk(value: unknown, levelId: number, scope: ReadonlySet<string>): void {
    if (Array.isArray(value)) {
      for (const v of value) this.walk(v, levelId, scope);
      return;
    }
    if (!isNode(value)) return;
    if (++this.#depth > 2000) throw new RangeError("SQL nested too deeply to check");
    try {
      this.#walkNode(value, levelId, scope);
    } finally {
      this.#depth--;
    }
  }

  #walkNode(value: Node, levelId: number, scope: ReadonlySet<string>): void {
    const ast = value["ast"];
    if (isNode(ast) && typeof ast["type"] === "string") {
      this.visitStatement(ast, levelId, "subquery", scope);
      return;
    }
    const type = value["type"];
    if (type === "column_ref") {
      const c = columnOf(value, this.#options.dialect);
      if (c !== null) this.columns.push(c);
      return;
    }
    if (type === "double_quote_string" && isSqlite(this.#options.dialect)) {
      this.columns.push({ table: null, name: String(value["value"]) });
      return;
    }
    if (type === "star") return;
    const constant = this.#literalOf(value);
    if (constant !== null) {
      this.constants.push(constant);
      return;
    }
    // MySQL `SELECT @x := 1` sets a user variable, like SET.
    if (type === "assign" && isNode(value["left"]) && value["left"]["prefix"] === "@") {
      this.nested.push("set");
    }
    if (typeof type === "string" && isStatementKind(type, value)) {
      this.visitStatement(value, levelId, "subquery", scope);
      return;
    }
    if (type === "function" || type === "aggr_func" || type === "window_func") {
      for (const name of functionNames(value["name"])) this.functions.push(name);
    }
    for (const [key, v] of Object.entries(value)) {
      if (key === "tableList" || key === "columnList") continue;
      this.walk(v, levelId, scope);
    }
  }

  #newLevel(parent: number | null, origin: QueryLevel["origin"]): MutableLevel {
    const level: MutableLevel = {
      id: this.levels.length,
      parent,
      origin,
      sources: [],
      predicates: [],
      joins: 0,
    };
    this.levels.push(level);
    return level;
  }

  #addSources(level: MutableLevel, items: readonly unknown[], scope: ReadonlySet<string>): void {
    for (const item of items) {
      if (!isNode(item)) continue;
      const index = level.sources.length;
      const alias = identName(item["as"]);
      const expr = item["expr"];
      if (isNode(expr) && isNode(expr["ast"])) {
        level.sources.push({ kind: "derived", name: "", schema: null, alias });
        this.visitStatement(expr["ast"], level.id, "derived", scope);
      } else if (item["table"] !== undefined && item["table"] !== null && expr === undefined) {
        const name = identName(item["table"]) ?? "";
        const schema = identName(item["db"]) ?? identName(item["schema"]);
        const isCte = schema === null && scope.has(tableKey(name, this.#options.dialect));
        level.sources.push({ kind: isCte ? "cte" : "table", name, schema, alias });
      } else {
        level.sources.push({ kind: "function", name: "", schema: null, alias });
        this.walk(expr ?? item, level.id, scope);
      }
      const join = typeof item["join"] === "string" ? item["join"].toUpperCase() : null;
      if (join !== null || index > 0) level.joins++;
      const appliesTo: QueryPredicate["appliesTo"] = join === null
        ? "all"
        : join.includes("LEFT")
        ? [index]
        : join.includes("RIGHT")
        ? Array.from({ length: index }, (_, i) => i)
        : join.includes("FULL")
        ? []
        : "all";
      for (const c of conjuncts(item["on"])) this.#addPredicate(level, c, appliesTo, "on");
      this.walk(item["on"], level.id, scope);
    }
  }

  #addPredicate(
    level: MutableLevel,
    expr: unknown,
    appliesTo: QueryPredicate["appliesTo"],
    clause: QueryPredicate["clause"],
  ): void {
    const p = this.#predicateOf(expr, appliesTo, clause);
    if (p !== null) level.predicates.push(p);
  }

  /** `col = literal`, `literal = col` or `col IN (literal, ...)`, else null. */
  #predicateOf(
    expr: unknown,
    appliesTo: QueryPredicate["appliesTo"],
    clause: QueryPredicate["clause"],
  ): QueryPredicate | null {
    if (!isNode(expr) || expr["type"] !== "binary_expr" || collated(expr)) return null;
    // A COLLATE on either side changes what equals the value (NOCASE matches 'S1').
    if (collated(expr["left"]) || collated(expr["right"])) return null;
    const op = String(expr["operator"]).toUpperCase();
    const dialect = this.#options.dialect;
    const left = columnOf(expr["left"], dialect);
    const right = columnOf(expr["right"], dialect);
    if (op === "=") {
      const [column, other] = left !== null ? [left, expr["right"]] : [right, expr["left"]];
      const value = this.#literalOf(other);
      if (column === null || value === null) return null;
      return { column, operator: "=", values: [value], appliesTo, clause };
    }
    if (op === "IN" && left !== null) {
      const list = expr["right"];
      if (!isNode(list) || list["type"] !== "expr_list") return null;
      const values = asList(list["value"]).map((v) => this.#literalOf(v));
      if (values.length === 0 || values.some((v) => v === null)) return null;
      return { column: left, operator: "IN", values: values as SqlLiteral[], appliesTo, clause };
    }
    return null;
  }

  #literalOf(v: unknown): SqlLiteral | null {
    if (!isNode(v) || collated(v)) return null;
    const type = v["type"];
    const raw = v["value"];
    switch (type) {
      case "single_quote_string":
      case "string":
      case "natural_string":
        return { kind: "string", value: unescapeLiteral(String(raw), this.#options.backslashes) };
      case "double_quote_string":
        // A string only where the dialect says so (MySQL); an identifier elsewhere.
        return isSqlite(this.#options.dialect) ? null : {
          kind: "string",
          value: unescapeLiteral(String(raw), this.#options.backslashes),
        };
      case "number":
        return { kind: "number", value: String(raw) };
      case "bool":
      case "boolean":
        return { kind: "boolean", value: String(raw) };
      case "param":
        return { kind: "parameter", value: `:${String(raw)}` };
      case "origin":
        return raw === "?" ? { kind: "parameter", value: "?" } : null;
      case "var":
        return v["prefix"] === "$" ? { kind: "parameter", value: `$${String(v["name"])}` } : null;
      default:
        return null;
    }
  }
}

/** Whether a node carries a COLLATE clause (`'s1' COLLATE NOCASE`, `col COLLATE x`). */
function collated(v: unknown): boolean {
  if (!isNode(v)) return false;
  const suffix = v["suffix"];
  return (v["collate"] !== undefined && v["collate"] !== null) ||
    (isNode(suffix) && suffix["collate"] !== undefined && suffix["collate"] !== null);
}

/**
 * The keys under which a WITH name hides a table of the same name, matched
 * by {@link tableKey}. SQLite folds names (ASCII letters). MySQL compares
 * table names and aliases case-sensitively (Unix default), so exactly. In
 * PostgreSQL an unquoted name folds to lower case and a quoted one does
 * not; the parser keeps the quoting of a WITH name but not of a table
 * reference, so a reference with upper-case letters matches only a WITH name
 * spelt the same way unquoted, and a quoted WITH name with upper-case letters
 * (`WITH "Orders"`, which `FROM Orders` does not reach) hides nothing.
 */
function cteKeys(nameNode: unknown, dialect: string): string[] {
  const name = identName(nameNode) ?? "";
  if (isMysqlLike(dialect)) return [name];
  if (!isPostgresLike(dialect)) return [foldAscii(name)];
  const quoted = isNode(nameNode) && nameNode["type"] === "double_quote_string";
  if (quoted) return name === foldAscii(name) ? [name] : [];
  return [foldAscii(name), `=${name}`];
}

/** The key of a table reference's name, to look up in the WITH names in scope. */
function tableKey(name: string, dialect: string): string {
  if (isMysqlLike(dialect)) return name;
  if (!isPostgresLike(dialect)) return foldAscii(name);
  return name === foldAscii(name) ? name : `=${name}`;
}

function isMysqlLike(dialect: string): boolean {
  return dialect === "mysql" || dialect === "mariadb";
}

function isPostgresLike(dialect: string): boolean {
  return dialect === "postgres" || dialect === "redshift";
}

/**
 * Builds the {@link QueryModel} from PostgreSQL's own parse tree (libpg-query,
 * protobuf JSON). Nodes typed `Node *` in PostgreSQL's headers arrive wrapped
 * (`{ "RangeVar": { ... } }`), fields of a fixed struct type unwrapped
 * (`InsertStmt.relation`, `SelectStmt.larg`), so the walker knows the few
 * unwrapped fields that matter and walks everything else generically: any
 * statement node anywhere is a nested statement, any `SubLink` a subquery,
 * any `RangeVar` outside a FROM list a table the statement names (the
 * target of a write, DDL, COPY, LOCK, SELECT INTO).
 *
 * Names arrive as PostgreSQL resolves them: unquoted identifiers already
 * folded to lower case, quoted ones as written, string constants unescaped.
 *
 * @module
 */
import type {
  ColumnRef,
  QueryLevel,
  QueryPredicate,
  QuerySource,
  SqlLiteral,
  SqlStatement,
} from "./query_model.ts";

type Obj = { readonly [key: string]: unknown };

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

/** `{ TypeName: body }` -> [TypeName, body], else null. */
function unwrap(v: unknown): [string, Obj] | null {
  if (!isObj(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 1) return null;
  const k = keys[0]!;
  const body = v[k];
  if (!/^[A-Z]/.test(k) || !isObj(body)) return null;
  return [k, body];
}

function sval(v: unknown): string | null {
  const u = unwrap(v);
  if (u === null || u[0] !== "String") return null;
  return typeof u[1]["sval"] === "string" ? u[1]["sval"] : "";
}

/** Statement node type -> the kind ReadOnly and the messages use. */
const KINDS: Record<string, string> = {
  SelectStmt: "select",
  InsertStmt: "insert",
  UpdateStmt: "update",
  DeleteStmt: "delete",
  MergeStmt: "merge",
  ExplainStmt: "explain",
  VariableShowStmt: "show",
  VariableSetStmt: "set",
  TruncateStmt: "truncate",
  TransactionStmt: "transaction",
  CopyStmt: "copy",
  LockStmt: "lock",
  CallStmt: "call",
  DoStmt: "do",
  ViewStmt: "create",
  IndexStmt: "create",
  RuleStmt: "create",
  DropStmt: "drop",
  RenameStmt: "alter",
  PrepareStmt: "prepare",
  ExecuteStmt: "execute",
  DeclareCursorStmt: "declare",
  ListenStmt: "listen",
  NotifyStmt: "notify",
  VacuumStmt: "vacuum",
  ClusterStmt: "cluster",
  ReindexStmt: "reindex",
  CheckPointStmt: "checkpoint",
  LoadStmt: "load",
  DiscardStmt: "discard",
  FetchStmt: "fetch",
  ClosePortalStmt: "close",
  CommentStmt: "comment",
};

function kindOf(type: string, body: Obj): string {
  if (type === "GrantStmt" || type === "GrantRoleStmt") {
    return body["is_grant"] === true ? "grant" : "revoke";
  }
  const known = KINDS[type];
  if (known !== undefined) return known;
  const m = /^(Create|Drop|Alter)/.exec(type);
  if (m !== null) return m[1]!.toLowerCase();
  return type.replace(/Stmt$/, "").toLowerCase();
}

function isStatementType(type: string): boolean {
  return type.endsWith("Stmt") && type !== "RawStmt";
}

interface MutableLevel {
  id: number;
  parent: number | null;
  origin: QueryLevel["origin"];
  sources: QuerySource[];
  predicates: QueryPredicate[];
  joins: number;
}

/**
 * Builds one statement's model from its libpg-query node.
 *
 * @param stmt the `stmt` of a RawStmt: `{ SelectStmt: {...} }`
 * @returns the statement
 */
export function buildPgStatement(stmt: unknown): SqlStatement {
  const node = unwrap(stmt);
  const b = new PgBuilder();
  if (node === null) throw new Error("libpg-query returned an empty statement");
  b.visitStatement(node[0], node[1], null, "statement", new Set());
  return {
    kind: kindOf(node[0], node[1]),
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

/** SelectStmt keys visitSelect handles itself. */
const SELECT_OWN = new Set([
  "withClause",
  "fromClause",
  "whereClause",
  "havingClause",
  "targetList",
  "intoClause",
  "lockingClause",
  "larg",
  "rarg",
  "op",
]);

class PgBuilder {
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
  #depth = 0;

  visitStatement(
    type: string,
    body: Obj,
    parent: number | null,
    origin: QueryLevel["origin"],
    scope: ReadonlySet<string>,
  ): void {
    if (type === "SelectStmt") {
      this.visitSelect(body, parent, origin, scope, []);
      return;
    }
    if (parent !== null || origin !== "statement") this.nested.push(kindOf(type, body));
    const level = this.#newLevel(parent, origin);
    const inner = new Set(scope);
    const withClause = body["withClause"];
    if (isObj(withClause)) this.#addCtes(withClause, level.id, inner);
    const skip = new Set(["withClause"]);
    if (type === "UpdateStmt" || type === "DeleteStmt") {
      this.#addTarget(level, body["relation"], inner);
      const extra = type === "UpdateStmt" ? "fromClause" : "usingClause";
      this.#addFrom(level, list(body[extra]), inner);
      for (const c of conjuncts(body["whereClause"])) this.#addPredicate(level, c, "all", "where");
      skip.add("relation").add(extra);
    } else if (type === "InsertStmt" || type === "MergeStmt") {
      this.#addTarget(level, body["relation"], inner);
      skip.add("relation");
      if (type === "MergeStmt") {
        this.#addFrom(level, list(body["sourceRelation"]), inner);
        skip.add("sourceRelation");
      }
    }
    for (const [key, value] of Object.entries(body)) {
      if (!skip.has(key)) this.walk(value, level, inner);
    }
  }

  /**
   * One SelectStmt. A set operation (`op` other than SETOP_NONE) is no
   * level itself: its branches are, the first with the given origin and the
   * rest as set branches; its WITH covers every branch, so it is handed to
   * the first leaf (`pendingWith`), which owns the CTE levels.
   *
   * @returns the scope later branches see (the outer scope plus the WITH names of enclosing set operations)
   */
  visitSelect(
    node: Obj,
    parent: number | null,
    origin: QueryLevel["origin"],
    scope: ReadonlySet<string>,
    pendingWith: Obj[],
  ): ReadonlySet<string> {
    this.#guard();
    try {
      this.#intoAndLocking(node);
      const withClause = node["withClause"];
      const op = node["op"];
      if (typeof op === "string" && op !== "SETOP_NONE") {
        this.setOperations++;
        const withs = isObj(withClause) ? [...pendingWith, withClause] : pendingWith;
        const left = isObj(node["larg"]) ? node["larg"] : {};
        const firstLevel = this.levels.length;
        const branchScope = this.visitSelect(left, parent, origin, scope, withs);
        const right = isObj(node["rarg"]) ? node["rarg"] : {};
        const branchOrigin = origin === "statement" ? "set-branch" : origin;
        this.visitSelect(right, parent, branchOrigin, branchScope, []);
        // ORDER BY, LIMIT, ... of the whole set operation: at the first branch.
        const first = this.levels[firstLevel]!;
        for (const [key, value] of Object.entries(node)) {
          if (!SELECT_OWN.has(key)) this.walk(value, first, branchScope);
        }
        return branchScope;
      }
      const level = this.#newLevel(parent, origin);
      const shared = new Set(scope);
      for (const w of pendingWith) this.#addCtes(w, level.id, shared);
      const own = new Set(shared);
      if (isObj(withClause)) this.#addCtes(withClause, level.id, own);
      this.#addFrom(level, list(node["fromClause"]), own);
      for (const c of conjuncts(node["whereClause"])) this.#addPredicate(level, c, "all", "where");
      this.walk(node["whereClause"], level, own);
      const groupBy = list(node["groupClause"]).map(columnOf).filter((c) => c !== null);
      for (const c of conjuncts(node["havingClause"])) {
        const p = predicateOf(c, "all", "having");
        if (p !== null && groupBy.some((g) => sameColumn(g, p.column))) level.predicates.push(p);
      }
      this.walk(node["havingClause"], level, own);
      for (const t of list(node["targetList"])) {
        const target = unwrap(t);
        if (target === null) continue;
        const name = target[1]["name"];
        if (typeof name === "string") this.outputNames.push(name);
        this.walk(target[1]["val"], level, own);
        this.walk(target[1]["indirection"], level, own);
      }
      for (const [key, value] of Object.entries(node)) {
        if (!SELECT_OWN.has(key)) this.walk(value, level, own);
      }
      return shared;
    } finally {
      this.#depth--;
    }
  }

  #intoAndLocking(node: Obj): void {
    const into = node["intoClause"];
    if (isObj(into)) {
      const rel = isObj(into["rel"]) ? into["rel"] : {};
      this.into.push(`INTO ${String(rel["relname"] ?? "")}`.trim());
    }
    for (const l of list(node["lockingClause"])) {
      const clause = unwrap(l);
      const strength = clause !== null ? String(clause[1]["strength"] ?? "") : "";
      this.locking.push(strength.replace(/^LCS_/, "").replace(/^FOR/, "FOR ") || "FOR UPDATE");
    }
  }

  #addCtes(withClause: Obj, levelId: number, scope: Set<string>): void {
    const ctes = list(withClause["ctes"]).map(unwrap).filter((c) => c !== null);
    const names = ctes.map(([, c]) => String(c["ctename"] ?? ""));
    // WITH RECURSIVE: every name of the list is visible in every body.
    if (withClause["recursive"] === true) names.forEach((n) => scope.add(n));
    ctes.forEach(([, c], i) => {
      this.ctes.push(names[i]!.toLowerCase());
      for (const col of list(c["aliascolnames"])) {
        const n = sval(col);
        if (n !== null) this.outputNames.push(n);
      }
      const query = unwrap(c["ctequery"]);
      if (query !== null) this.visitStatement(query[0], query[1], levelId, "cte", new Set(scope));
      scope.add(names[i]!);
    });
  }

  /** An unwrapped RangeVar: the target of a write. */
  #addTarget(level: MutableLevel, rel: unknown, scope: ReadonlySet<string>): void {
    if (isObj(rel)) this.#addFrom(level, [{ RangeVar: rel }], scope);
  }

  /** A FROM list: comma items are joins after the first. */
  #addFrom(level: MutableLevel, items: unknown[], scope: ReadonlySet<string>): void {
    items.forEach((item, i) => {
      if (i > 0) level.joins++;
      this.#addFromItem(level, item, scope);
    });
  }

  /** @returns the indexes of the sources the item added */
  #addFromItem(level: MutableLevel, item: unknown, scope: ReadonlySet<string>): number[] {
    const node = unwrap(item);
    if (node === null) return [];
    const [type, body] = node;
    const start = level.sources.length;
    const alias = aliasOf(body["alias"], this.outputNames);
    switch (type) {
      case "RangeVar": {
        const name = String(body["relname"] ?? "");
        const schema = typeof body["schemaname"] === "string" ? body["schemaname"] : null;
        const kind = schema === null && scope.has(name) ? "cte" : "table";
        level.sources.push({ kind, name, schema, alias });
        break;
      }
      case "RangeSubselect": {
        level.sources.push({ kind: "derived", name: "", schema: null, alias });
        const q = unwrap(body["subquery"]);
        if (q !== null) this.visitStatement(q[0], q[1], level.id, "derived", scope);
        break;
      }
      case "RangeTableSample":
        return this.#addFromItem(level, body["relation"], scope).concat(
          this.#walkRest(body, ["relation"], level, scope),
        );
      case "JoinExpr": {
        level.joins++;
        const left = this.#addFromItem(level, body["larg"], scope);
        const right = this.#addFromItem(level, body["rarg"], scope);
        const jointype = String(body["jointype"] ?? "JOIN_INNER");
        const appliesTo: QueryPredicate["appliesTo"] = jointype === "JOIN_LEFT"
          ? right
          : jointype === "JOIN_RIGHT"
          ? left
          : jointype === "JOIN_FULL"
          ? []
          : [...left, ...right];
        for (const c of conjuncts(body["quals"])) this.#addPredicate(level, c, appliesTo, "on");
        this.walk(body["quals"], level, scope);
        for (const u of list(body["usingClause"])) {
          const name = sval(u);
          if (name !== null) this.columns.push({ table: null, name });
        }
        // `JOIN ... AS j`: an alias over the whole join.
        return [...left, ...right];
      }
      default:
        // RangeFunction, RangeTableFunc (XMLTABLE), JsonTable, ...
        level.sources.push({ kind: "function", name: "", schema: null, alias });
        this.#walkRest(body, ["alias"], level, scope);
    }
    return Array.from({ length: level.sources.length - start }, (_, i) => start + i);
  }

  #walkRest(body: Obj, skip: string[], level: MutableLevel, scope: ReadonlySet<string>): number[] {
    for (const [key, value] of Object.entries(body)) {
      if (!skip.includes(key)) this.walk(value, level, scope);
    }
    return [];
  }

  #addPredicate(
    level: MutableLevel,
    expr: unknown,
    appliesTo: QueryPredicate["appliesTo"],
    clause: QueryPredicate["clause"],
  ): void {
    const p = predicateOf(expr, appliesTo, clause);
    if (p !== null) level.predicates.push(p);
  }

  /** Walks any value for columns, functions, nested queries and named tables. */
  walk(value: unknown, level: MutableLevel, scope: ReadonlySet<string>): void {
    if (Array.isArray(value)) {
      for (const v of value) this.walk(v, level, scope);
      return;
    }
    if (!isObj(value)) return;
    const node = unwrap(value);
    if (node === null) {
      // An unwrapped struct: a RangeVar (a write's target, COPY, LOCK, ...) or other.
      if (typeof value["relname"] === "string") {
        this.#addFrom(level, [{ RangeVar: value }], scope);
        return;
      }
      for (const v of Object.values(value)) this.walk(v, level, scope);
      return;
    }
    this.#guard();
    try {
      this.#walkNode(node[0], node[1], level, scope);
    } finally {
      this.#depth--;
    }
  }

  #walkNode(type: string, body: Obj, level: MutableLevel, scope: ReadonlySet<string>): void {
    if (isStatementType(type)) {
      this.visitStatement(type, body, level.id, "subquery", scope);
      return;
    }
    if (type === "A_Const" || type === "ParamRef") {
      const constant = literalOf({ [type]: body });
      if (constant !== null) this.constants.push(constant);
      return;
    }
    switch (type) {
      case "ColumnRef": {
        const c = columnOf({ ColumnRef: body });
        if (c !== null) this.columns.push(c);
        return;
      }
      case "ResTarget": {
        // Outside a select list: a column an INSERT or UPDATE writes.
        if (typeof body["name"] === "string") {
          this.columns.push({ table: null, name: body["name"] });
        }
        break;
      }
      case "FuncCall": {
        const parts = list(body["funcname"]).map(sval).filter((n) => n !== null);
        const bare = (parts.at(-1) ?? "").toLowerCase();
        if (bare !== "") this.functions.push(bare);
        if (parts.length > 1) this.functions.push(parts.join(".").toLowerCase());
        break;
      }
      case "RangeVar":
        this.#addFrom(level, [{ RangeVar: body }], scope);
        return;
    }
    for (const v of Object.values(body)) this.walk(v, level, scope);
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

  #guard(): void {
    if (++this.#depth > 2000) {
      this.#depth--;
      throw new RangeError("SQL nested too deeply to check");
    }
  }
}

/** The alias name of an Alias struct; its column names are names the query defines. */
function aliasOf(alias: unknown, outputNames: string[]): string | null {
  if (!isObj(alias)) return null;
  for (const c of list(alias["colnames"])) {
    const n = sval(c);
    if (n !== null) outputNames.push(n);
  }
  return typeof alias["aliasname"] === "string" ? alias["aliasname"] : null;
}

/** The AND conjuncts of an expression (PostgreSQL flattens `a AND b AND c` into one BoolExpr). */
function conjuncts(expr: unknown): unknown[] {
  const node = unwrap(expr);
  if (node === null) return [];
  if (node[0] === "BoolExpr" && node[1]["boolop"] === "AND_EXPR") {
    return list(node[1]["args"]).flatMap(conjuncts);
  }
  return [expr];
}

function columnOf(v: unknown): ColumnRef | null {
  const node = unwrap(v);
  if (node === null || node[0] !== "ColumnRef") return null;
  const fields = list(node[1]["fields"]);
  const last = fields.at(-1);
  const star = unwrap(last)?.[0] === "A_Star";
  const name = star ? "*" : sval(last);
  if (name === null) return null;
  const table = fields.length > 1 ? sval(fields.at(-2)) : null;
  return { table, name };
}

function sameColumn(a: ColumnRef, b: ColumnRef): boolean {
  if (a.name !== b.name) return false;
  return a.table === null || b.table === null || a.table === b.table;
}

/** The one operator name of an A_Expr, when it is not schema-qualified. */
function operatorOf(body: Obj): string | null {
  const names = list(body["name"]);
  return names.length === 1 ? sval(names[0]) : null;
}

/** `col = literal`, `literal = col` or `col IN (literal, ...)`, else null. */
function predicateOf(
  expr: unknown,
  appliesTo: QueryPredicate["appliesTo"],
  clause: QueryPredicate["clause"],
): QueryPredicate | null {
  const node = unwrap(expr);
  if (node === null || node[0] !== "A_Expr") return null;
  const body = node[1];
  if (operatorOf(body) !== "=") return null;
  const left = columnOf(body["lexpr"]);
  if (body["kind"] === "AEXPR_OP") {
    const right = columnOf(body["rexpr"]);
    const [column, other] = left !== null ? [left, body["rexpr"]] : [right, body["lexpr"]];
    const value = literalOf(other);
    if (column === null || column.name === "*" || value === null) return null;
    return { column, operator: "=", values: [value], appliesTo, clause };
  }
  if (body["kind"] === "AEXPR_IN" && left !== null && left.name !== "*") {
    const items = unwrap(body["rexpr"]);
    if (items === null || items[0] !== "List") return null;
    const values = list(items[1]["items"]).map(literalOf);
    if (values.length === 0 || values.some((v) => v === null)) return null;
    return { column: left, operator: "IN", values: values as SqlLiteral[], appliesTo, clause };
  }
  return null;
}

/** A constant: protobuf JSON leaves out zero values (`{ ival: {} }` is 0, `{ sval: {} }` is ''). */
function literalOf(v: unknown): SqlLiteral | null {
  const node = unwrap(v);
  if (node === null) return null;
  const [type, body] = node;
  if (type === "ParamRef") return { kind: "parameter", value: `$${Number(body["number"] ?? 0)}` };
  if (type !== "A_Const" || body["isnull"] === true) return null;
  const field = (key: string): unknown => (isObj(body[key]) ? (body[key] as Obj)[key] : undefined);
  if (isObj(body["sval"])) return { kind: "string", value: String(field("sval") ?? "") };
  if (isObj(body["ival"])) return { kind: "number", value: String(field("ival") ?? 0) };
  if (isObj(body["fval"])) return { kind: "number", value: String(field("fval") ?? "0") };
  if (isObj(body["boolval"])) return { kind: "boolean", value: String(field("boolval") === true) };
  return null;
}

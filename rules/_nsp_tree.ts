/**
 * Reading node-sql-parser's tree: names in each dialect build's spelling,
 * AND conjuncts, column references, function names, statement targets.
 *
 * @module
 */
import type { ColumnRef } from "./query_model.ts";

const SELECT = "select";

export type Node = { readonly [key: string]: unknown };

export function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A name from any of the parser's spellings: `"a"`, `{ value: "a" }`, `{ expr: { value } }`. */
export function identName(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (isNode(v)) {
    if ("value" in v) return identName(v["value"]);
    if ("expr" in v) return identName(v["expr"]);
  }
  return null;
}

/**
 * The tables a non-SELECT statement names: UPDATE's `table` list (plus
 * PostgreSQL's `from`), DELETE's `from` (its `table` repeats the targets),
 * INSERT's target, and for DDL and utility statements every `{ table }`
 * object and GRANT's objects.
 */
export function targetItems(kind: string, node: Node): unknown[] {
  if (kind === "update") return [...asList(node["table"]), ...asList(node["from"])];
  if (kind === "delete") {
    const from = asList(node["from"]);
    return from.length > 0 ? from : asList(node["table"]);
  }
  if (kind === "insert" || kind === "replace") return asList(node["table"]);
  const found: unknown[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isNode(v) || isNode(v["ast"]) || v["type"] === SELECT) return;
    if (typeof v["table"] === "string") found.push(v);
    else if (Array.isArray(v["priv_level"])) {
      for (const p of v["priv_level"]) {
        const name = isNode(p) ? identName(p["name"]) : null;
        if (name !== null && name !== "*") found.push({ table: name });
      }
    }
    for (const x of Object.values(v)) visit(x);
  };
  visit(node);
  return found;
}

export function asList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return [];
  return [v];
}

export function isSqlite(dialect: string): boolean {
  return dialect === "sqlite";
}

/** Writes and other statements can appear nested (a data-modifying CTE, EXPLAIN's target). */
const STATEMENT_KINDS = new Set([
  "select",
  "insert",
  "replace",
  "update",
  "delete",
  "merge",
  "create",
  "drop",
  "alter",
  "truncate",
  "rename",
  "lock",
  "unlock",
  "call",
  "set",
  "use",
  "grant",
  "revoke",
  "transaction",
  "attach",
  "load_data",
]);

export function isStatementKind(type: string, node: Node): boolean {
  if (!STATEMENT_KINDS.has(type.toLowerCase())) return false;
  // `{ type: "select" }` nodes always come with columns; guard against
  // expression nodes that merely share a word.
  return type !== "select" || "columns" in node;
}

/**
 * The `AND` conjuncts of an expression, flattened through parentheses.
 *
 * The parser binds XOR tighter than AND; MySQL binds it looser
 * (`a AND 0 XOR 1` is `(a AND 0) XOR 1`). An AND chain with an
 * unparenthesized XOR in it is therefore one opaque conjunct.
 */
export function conjuncts(expr: unknown): unknown[] {
  if (!isNode(expr)) return [];
  if (!isOperator(expr, "AND")) return [expr];
  const chain = andChain(expr);
  if (chain.some((c) => isOperator(c, "XOR") && c["parentheses"] !== true)) return [expr];
  return chain.flatMap((c) => (isOperator(c, "AND") ? conjuncts(c) : [c]));
}

/** The operands of an AND chain, down to parenthesized groups. */
function andChain(expr: Node): Node[] {
  const out: Node[] = [];
  for (const side of [expr["left"], expr["right"]]) {
    if (!isNode(side)) continue;
    if (isOperator(side, "AND") && side["parentheses"] !== true) out.push(...andChain(side));
    else out.push(side);
  }
  return out;
}

function isOperator(v: unknown, operator: string): v is Node {
  return isNode(v) && v["type"] === "binary_expr" &&
    String(v["operator"]).toUpperCase() === operator;
}

export function columnOf(v: unknown, dialect: string): ColumnRef | null {
  if (!isNode(v)) return null;
  if (v["type"] === "double_quote_string" && isSqlite(dialect)) {
    return { table: null, name: String(v["value"]) };
  }
  if (v["type"] !== "column_ref") return null;
  const name = identName(v["column"]);
  if (name === null) return null;
  const table = v["table"] === null || v["table"] === undefined ? null : identName(v["table"]);
  return { table, name };
}

export function groupColumns(groupby: unknown, dialect: string): ColumnRef[] {
  const list = isNode(groupby) ? asList(groupby["columns"]) : asList(groupby);
  return list.map((g) => columnOf(g, dialect)).filter((c): c is ColumnRef => c !== null);
}

export function sameColumn(a: ColumnRef, b: ColumnRef): boolean {
  if (a.name.toLowerCase() !== b.name.toLowerCase()) return false;
  return a.table === null || b.table === null || a.table.toLowerCase() === b.table.toLowerCase();
}

export function functionNames(name: unknown): string[] {
  if (typeof name === "string") return [name.toLowerCase()];
  if (!isNode(name)) return [];
  const parts = asList(name["name"]).map(identName).filter((n): n is string => n !== null);
  const bare = parts.join(".").toLowerCase();
  if (bare === "") return [];
  const schema = identName(name["schema"]);
  return schema === null ? [bare] : [bare, `${schema.toLowerCase()}.${bare}`];
}

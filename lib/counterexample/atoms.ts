/**
 * The comparisons a query makes between a column and constants (its
 * "atoms": `price >= 10`, `status IN ('paid', 'new')`, `name LIKE 'A%'`,
 * `note IS NULL`), with the table each column belongs to, and the counts a
 * correlated subquery compares with a number (`(SELECT count(*) FROM
 * invoice i WHERE ...) <= 3`). Read from the query's tokens, not parsed: a
 * misreading only makes a less useful candidate, never a wrong claim.
 *
 * Worked example: in `SELECT o.id FROM orders o JOIN store s ON s.id =
 * o.store_id WHERE s.name = 'Main' AND o.total >= 10` the atoms are
 * `store.name = 'Main'` and `orders.total >= 10` (the aliases resolved);
 * `s.id = o.store_id` compares two columns, which `query_shape.ts` reads.
 *
 * @module
 */
import { type SqlToken, sqlTokens } from "./_tokens.ts";

/** How an atom compares its column. */
export type AtomOp =
  | "="
  | "<>"
  | "<"
  | "<="
  | ">"
  | ">="
  | "between"
  | "in"
  | "like"
  | "glob"
  | "null"
  | "notnull";

/** One comparison of a column with constants. */
export interface Atom {
  /** Which query (0: the first given) and which of its `UNION`/`EXCEPT`/`INTERSECT` branches. */
  readonly query: number;
  readonly branch: number;
  /** The tables the column may belong to (lower-cased): its alias resolved, or null when unqualified. */
  readonly table: string | null;
  /** The column, lower-cased. */
  readonly column: string;
  readonly op: AtomOp;
  /** The constants: one, two for BETWEEN, the list for IN, none for IS NULL. */
  readonly values: readonly (number | string)[];
  /** `NOT BETWEEN`, `NOT IN`, `NOT LIKE`. */
  readonly negated: boolean;
  /** The column is inside a function call (`date(d) <= '2024-06-30'`): its constant is a hint only. */
  readonly wrapped: boolean;
  /**
   * Constants written as expressions of constants (`date('2023-03-01', '+1
   * month')`): their SQL, by index in `values` (which holds the text until
   * `foldAtoms` evaluates it).
   */
  readonly expressions?: readonly { readonly index: number; readonly sql: string }[];
}

/** A comparison of two columns by order: `o.shipped_at > o.created_at`, `e.salary >= m.salary`. */
export interface ColumnComparison {
  readonly query: number;
  readonly branch: number;
  readonly left: { readonly table: string | null; readonly column: string };
  readonly right: { readonly table: string | null; readonly column: string };
  readonly op: "<" | "<=" | ">" | ">=" | "<>";
}

/** A correlated subquery's aggregate compared with a number: `(SELECT count(*) FROM t ...) > 3`. */
export interface SubqueryCount {
  /** The table the subquery reads first, lower-cased. */
  readonly table: string;
  readonly kind: "count" | "sum" | "avg";
  /** The aggregate's column, lower-cased, or null for `count(*)`. */
  readonly column: string | null;
  readonly value: number;
}

const COMPARE = new Map<string, AtomOp>([
  ["=", "="],
  ["==", "="],
  ["<>", "<>"],
  ["!=", "<>"],
  ["<", "<"],
  ["<=", "<="],
  [">", ">"],
  [">=", ">="],
]);
const FLIP: Record<string, AtomOp> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
const SET_OPERATORS = new Set(["union", "intersect", "except"]);
/** An operator next to a literal makes it part of an expression, not the constant compared. */
const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "||", "."]);
/** Words that end a table reference in a FROM clause (so they are not its alias). */
const NOT_ALIAS = new Set([
  "where",
  "join",
  "inner",
  "left",
  "right",
  "full",
  "outer",
  "cross",
  "natural",
  "on",
  "using",
  "group",
  "order",
  "having",
  "limit",
  "union",
  "intersect",
  "except",
  "window",
  "indexed",
  "not",
  "as",
  "select",
  "values",
]);
const NOT_COLUMN = new Set([
  "null",
  "true",
  "false",
  "and",
  "or",
  "not",
  "select",
  "case",
  "when",
  "then",
  "else",
  "end",
  "exists",
  "distinct",
  "all",
  "current_date",
  "current_time",
  "current_timestamp",
]);

function isName(t: SqlToken | undefined): boolean {
  return t !== undefined &&
    ((t.kind === "word" && !NOT_COLUMN.has(t.text)) || t.kind === "quoted");
}

function literal(t: SqlToken | undefined): number | string | undefined {
  if (t === undefined) return undefined;
  if (t.kind === "number" && Number.isFinite(t.value)) return t.value;
  if (t.kind === "string") return t.text;
  return undefined;
}

/** A token as SQL text again. */
function sqlText(t: SqlToken): string {
  if (t.kind === "string") return `'${t.text.replaceAll("'", "''")}'`;
  if (t.kind === "number") return t.value! < 0 ? `-${t.text}` : t.text;
  return t.text;
}

/**
 * A function call of constants starting at token `start` (`date('2023-03-01',
 * '+1 month')`, nested calls and arithmetic allowed, no column): its SQL and
 * its last token, or null.
 */
function constantCall(
  tokens: readonly SqlToken[],
  start: number,
): { readonly sql: string; readonly end: number } | null {
  const open = tokens[start + 1];
  if (tokens[start]?.kind !== "word" || open?.text !== "(") return null;
  let end = start + 2;
  while (end < tokens.length && !(tokens[end]!.depth === open.depth && tokens[end]!.text === ")")) {
    const t = tokens[end]!;
    const call = t.kind === "word" && tokens[end + 1]?.text === "(";
    if (t.kind !== "string" && t.kind !== "number" && t.kind !== "op" && !call) return null;
    end++;
  }
  if (end >= tokens.length) return null;
  return { sql: tokens.slice(start, end + 1).map(sqlText).join(" "), end };
}

/** The tables of a query's FROM clauses, by alias and by name (lower-cased). */
function aliases(tokens: readonly SqlToken[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const from = t.kind === "word" && (t.text === "from" || t.text === "join");
    const comma = t.kind === "op" && t.text === "," && out.size > 0 &&
      isTableListComma(tokens, i);
    if (!from && !comma) continue;
    let j = i + 1;
    if (!isName(tokens[j])) continue;
    let table = tokens[j]!.text;
    if (tokens[j + 1]?.text === "." && isName(tokens[j + 2])) {
      table = tokens[j + 2]!.text; // schema.table
      j += 2;
    }
    out.set(table, table);
    j++;
    if (tokens[j]?.kind === "word" && tokens[j]!.text === "as") j++;
    const alias = tokens[j];
    if (isName(alias) && !(alias!.kind === "word" && NOT_ALIAS.has(alias!.text))) {
      out.set(alias!.text, table);
    }
  }
  return out;
}

/** Whether a comma separates tables of a FROM list (the last keyword before it, at its depth, is FROM). */
function isTableListComma(tokens: readonly SqlToken[], at: number): boolean {
  const depth = tokens[at]!.depth;
  for (let k = at - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (t.depth < depth) return false;
    if (t.depth > depth || t.kind !== "word") continue;
    if (t.text === "from") return true;
    if (t.text === "select" || t.text === "where" || t.text === "on" || t.text === "by") {
      return false;
    }
  }
  return false;
}

interface ColumnRef {
  readonly qualifier: string | null;
  readonly column: string;
  readonly wrapped: boolean;
}

/** The column reference that ends at token `end` (inclusive): `c`, `t.c` or `f(t.c, ...)`. */
function columnEndingAt(tokens: readonly SqlToken[], end: number): ColumnRef | null {
  const t = tokens[end];
  if (t === undefined) return null;
  if (t.kind === "op" && t.text === ")") {
    // f(col, ...): the first argument of a function call
    let k = end - 1;
    while (k >= 0 && tokens[k]!.depth > t.depth) k--;
    if (k < 0 || tokens[k]!.text !== "(" || tokens[k - 1]?.kind !== "word") return null;
    const inner = columnStartingAt(tokens, k + 1);
    return inner === null ? null : { ...inner, wrapped: true };
  }
  if (!isName(t)) return null;
  const dotted = tokens[end - 1]?.text === "." && isName(tokens[end - 2]);
  return { qualifier: dotted ? tokens[end - 2]!.text : null, column: t.text, wrapped: false };
}

/** The column reference that starts at token `start`. */
function columnStartingAt(tokens: readonly SqlToken[], start: number): ColumnRef | null {
  const t = tokens[start];
  if (!isName(t)) return null;
  if (tokens[start + 1]?.text === "(") {
    const inner = columnStartingAt(tokens, start + 2);
    return inner === null ? null : { ...inner, wrapped: true };
  }
  if (tokens[start + 1]?.text === "." && isName(tokens[start + 2])) {
    return { qualifier: t!.text, column: tokens[start + 2]!.text, wrapped: false };
  }
  return { qualifier: null, column: t!.text, wrapped: false };
}

/**
 * The atoms of some queries.
 *
 * @param queries the SQL texts
 * @param compares when given, the comparisons of two columns by order are added to it
 * @returns every atom, in the order they are written
 */
export function queryAtoms(
  queries: readonly string[],
  compares?: ColumnComparison[],
): Atom[] {
  const out: Atom[] = [];
  queries.forEach((sql, query) => {
    const tokens = sqlTokens(sql);
    const names = aliases(tokens);
    let branch = 0;
    const add = (
      ref: ColumnRef | null,
      op: AtomOp,
      values: (number | string)[],
      negated = false,
      expressions: { index: number; sql: string }[] = [],
    ) => {
      if (ref === null) return;
      const table = ref.qualifier === null ? null : names.get(ref.qualifier) ?? ref.qualifier;
      out.push({
        query,
        branch,
        table,
        column: ref.column,
        op,
        values,
        negated,
        wrapped: ref.wrapped,
        ...(expressions.length > 0 ? { expressions } : {}),
      });
    };
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.depth === 0 && t.kind === "word" && SET_OPERATORS.has(t.text)) branch++;
      const op = t.kind === "op" ? COMPARE.get(t.text) : undefined;
      if (op !== undefined) {
        const right = literal(tokens[i + 1]);
        const left = literal(tokens[i - 1]);
        const call = right === undefined ? constantCall(tokens, i + 1) : null;
        if (right !== undefined && !ARITHMETIC.has(tokens[i + 2]?.text ?? "")) {
          add(columnEndingAt(tokens, i - 1), op, [right]);
        } else if (call !== null && !ARITHMETIC.has(tokens[call.end + 1]?.text ?? "")) {
          add(columnEndingAt(tokens, i - 1), op, [call.sql], false, [{ index: 0, sql: call.sql }]);
        } else if (left !== undefined && !ARITHMETIC.has(tokens[i - 2]?.text ?? "")) {
          add(columnStartingAt(tokens, i + 1), FLIP[op] ?? op, [left]);
        } else if (op !== "=" && compares !== undefined) {
          const a = columnEndingAt(tokens, i - 1);
          const b = columnStartingAt(tokens, i + 1);
          const next = tokens[i + (b?.qualifier === null ? 2 : 4)]?.text ?? "";
          if (a !== null && b !== null && !a.wrapped && !b.wrapped && !ARITHMETIC.has(next)) {
            const ref = (r: ColumnRef) => ({
              table: r.qualifier === null ? null : names.get(r.qualifier) ?? r.qualifier,
              column: r.column,
            });
            const order = op as ColumnComparison["op"];
            compares.push({ query, branch, left: ref(a), right: ref(b), op: order });
          }
        }
        continue;
      }
      if (t.kind !== "word") continue;
      const negated = tokens[i - 1]?.kind === "word" && tokens[i - 1]!.text === "not";
      const before = negated ? i - 2 : i - 1;
      if (t.text === "between") {
        // each bound a constant or a call of constants
        const first = literal(tokens[i + 1]) ?? constantCall(tokens, i + 1);
        const at = first !== null && typeof first === "object" ? first.end + 1 : i + 2;
        const second = tokens[at]?.text === "and"
          ? literal(tokens[at + 1]) ?? constantCall(tokens, at + 1)
          : undefined;
        if (first !== undefined && first !== null && second !== undefined && second !== null) {
          const expressions = [first, second].flatMap((v, index) =>
            typeof v === "object" ? [{ index, sql: v.sql }] : []
          );
          const values = [first, second].map((v) => (typeof v === "object" ? v.sql : v));
          add(columnEndingAt(tokens, before), "between", values, negated, expressions);
        }
      } else if (t.text === "in" && tokens[i + 1]?.text === "(") {
        const values: (number | string)[] = [];
        let k = i + 2;
        for (; k < tokens.length; k += 2) {
          const v = literal(tokens[k]);
          if (v === undefined) break;
          values.push(v);
          if (tokens[k + 1]?.text !== ",") break;
        }
        if (values.length > 0 && tokens[k + 1]?.text === ")") {
          add(columnEndingAt(tokens, before), "in", values, negated);
        }
      } else if (t.text === "like" || t.text === "glob") {
        const v = literal(tokens[i + 1]);
        if (typeof v === "string") add(columnEndingAt(tokens, before), t.text, [v], negated);
      } else if (t.text === "is") {
        const not = tokens[i + 1]?.text === "not";
        const next = tokens[not ? i + 2 : i + 1];
        if (next?.kind === "word" && next.text === "null") {
          add(columnEndingAt(tokens, i - 1), not ? "notnull" : "null", []);
        } else if (literal(next) !== undefined) {
          add(columnEndingAt(tokens, i - 1), not ? "<>" : "=", [literal(next)!]);
        }
      }
    }
  });
  return out;
}

/**
 * The atoms with their constant expressions evaluated (by the engine the
 * queries run on, so `date(...)` means what it means there); an atom whose
 * expression cannot be evaluated to a number or text is left out.
 *
 * @param atoms the atoms
 * @param evaluate runs `SELECT <sql>` and gives the value, or undefined
 * @returns the atoms, every constant a value
 */
export async function foldAtoms(
  atoms: readonly Atom[],
  evaluate: ((sql: string) => unknown) | undefined,
): Promise<Atom[]> {
  const out: Atom[] = [];
  for (const a of atoms) {
    if (a.expressions === undefined) {
      out.push(a);
      continue;
    }
    if (evaluate === undefined) continue;
    const values = [...a.values];
    let ok = true;
    for (const e of a.expressions) {
      const v = await evaluate(e.sql);
      if (typeof v === "number" || typeof v === "string") values[e.index] = v;
      else if (typeof v === "bigint") values[e.index] = Number(v);
      else ok = false;
    }
    if (ok) out.push({ ...a, values, expressions: [] });
  }
  return out;
}

/**
 * Correlated subqueries' aggregates compared with a number, in either order:
 * `(SELECT count(*) FROM t WHERE ...) >= 3`, `3 < (SELECT sum(x) FROM t ...)`.
 *
 * @param queries the SQL texts
 * @returns what each compares
 */
export function subqueryCounts(queries: readonly string[]): SubqueryCount[] {
  const out: SubqueryCount[] = [];
  for (const sql of queries) {
    const tokens = sqlTokens(sql);
    for (let i = 0; i + 4 < tokens.length; i++) {
      const open = tokens[i]!;
      const fn = tokens[i + 2]!;
      if (
        open.text !== "(" || tokens[i + 1]!.text !== "select" || tokens[i + 3]!.text !== "(" ||
        !["count", "sum", "avg", "total"].includes(fn.text)
      ) continue;
      // the aggregate's argument, and the subquery's first table
      let k = i + 4;
      const arg: SqlToken[] = [];
      while (k < tokens.length && tokens[k]!.text !== ")") arg.push(tokens[k++]!);
      const names = arg.filter((a) => isName(a) && a.text !== "distinct");
      const column = names.length > 0 ? names[names.length - 1]!.text : null;
      while (k < tokens.length && tokens[k]!.depth > open.depth && tokens[k]!.text !== "from") k++;
      const table = tokens[k]?.text === "from" && isName(tokens[k + 1])
        ? tokens[k + 1]!.text
        : null;
      let close = k;
      while (
        close < tokens.length &&
        !(tokens[close]!.depth === open.depth && tokens[close]!.text === ")")
      ) {
        close++;
      }
      if (table === null || close >= tokens.length) continue;
      const after = COMPARE.get(tokens[close + 1]?.text ?? "") !== undefined
        ? literal(tokens[close + 2])
        : undefined;
      const before = COMPARE.get(tokens[i - 1]?.text ?? "") !== undefined
        ? literal(tokens[i - 2])
        : undefined;
      const value = typeof after === "number" ? after : typeof before === "number" ? before : null;
      if (value === null) continue;
      const kind = fn.text === "count" ? "count" : fn.text === "avg" ? "avg" : "sum";
      out.push({ table, kind, column: kind === "count" ? null : column, value });
    }
  }
  return out;
}

/**
 * What the queries' text says about the size and shape of a database that
 * could tell them apart: the counts their aggregates and LIMITs compare
 * with (`HAVING COUNT(*) > 28` wants a group of 28 or 29 rows, `LIMIT 10`
 * eleven rows, `SUM(x) > 100` values summing to 100), and which columns
 * their joins equate (`a.x = b.y`, `USING (k)`, `NATURAL JOIN`: the same
 * name), and the comparisons of columns with constants (`atoms.ts`).
 * Read from the text with regular expressions and tokens, not parsed: a
 * misreading only makes a less useful candidate, never a wrong claim (every
 * candidate is judged by running the queries).
 *
 * @module
 */
import { type Atom, type ColumnComparison, queryAtoms, subqueryCounts } from "./atoms.ts";

/** A size the queries compare with. */
export interface SizeTarget {
  /** `count`: rows in a group; `distinct`: distinct values of `column` in a group; `sum`: values of `column` summing to `value`; `avg`: values averaging it; `rows`: rows in the result (LIMIT, OFFSET). */
  readonly kind: "count" | "distinct" | "sum" | "avg" | "rows";
  /** The constant compared with. */
  readonly value: number;
  /** The column inside the aggregate, lower-cased, without its table. */
  readonly column: string | null;
  /** The table whose rows are counted, when the text says (a correlated subquery's), lower-cased. */
  readonly table?: string;
}

/** Sizes and equated columns. */
export interface QueryShape {
  readonly sizes: readonly SizeTarget[];
  /** Pairs of column names (lower-cased, without tables) that a query equates. */
  readonly equalities: readonly (readonly [string, string])[];
  /** `a = b + n`: column a equals column b plus a constant (a, b, n). */
  readonly offsets: readonly (readonly [string, string, number])[];
  /** The comparisons of a column with constants, in both queries. */
  readonly atoms: readonly Atom[];
  /** The comparisons of two columns by order (`shipped_at > created_at`). */
  readonly compares: readonly ColumnComparison[];
  /**
   * Column names a join equates by name (lower-cased): those of `USING (...)`,
   * or every name (`"all"`) when a query has a NATURAL JOIN.
   */
  readonly sameName: ReadonlySet<string> | "all";
}

const NUM = String.raw`(-?\d+(?:\.\d+)?)`;
const OP = String.raw`(>=|<=|<>|!=|==|=|>|<)`;
const AGG = String.raw`\b(COUNT|SUM|AVG|TOTAL)\s*\(\s*(DISTINCT\s+)?([^()]*?)\s*\)`;
const NAME = String.raw`(?:[\w$]+|"[^"]+"|\[[^\]]+\]|` + "`[^`]+`" + String.raw`)`;
const COLUMN = String.raw`(?<![\w$])(?:${NAME}\s*\.\s*)?(${NAME})`;

function bare(name: string): string {
  return name.replace(/^["[`]|["\]`]$/g, "").toLowerCase();
}

/** The text without string literals and comments, so their content is not read as SQL. */
function code(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, " ").replace(
    /\/\*[\s\S]*?\*\//g,
    " ",
  );
}

/**
 * Reads the shape of one or more queries.
 *
 * @param queries the SQL texts
 * @returns the sizes they compare with and the columns they equate
 */
export function queryShape(queries: readonly string[]): QueryShape {
  const sizes: SizeTarget[] = [];
  const equalities: [string, string][] = [];
  const offsets: [string, string, number][] = [];
  const seen = new Set<string>();
  let sameName: Set<string> | "all" = new Set<string>();
  const add = (t: SizeTarget): void => {
    const k = `${t.kind}:${t.value}:${t.column}:${t.table ?? ""}`;
    if (!seen.has(k) && Number.isFinite(t.value)) {
      seen.add(k);
      sizes.push(t);
    }
  };
  const aggregate = (fn: string, distinct: string | undefined, arg: string, n: number): void => {
    const column = /^\s*\*?\s*$/.test(arg) || /^\d+$/.test(arg.trim())
      ? null
      : new RegExp(`^${COLUMN}$`).exec(arg.trim())?.[1] ?? null;
    const col = column === null ? null : bare(column);
    const f = fn.toUpperCase();
    if (f === "COUNT") add({ kind: distinct ? "distinct" : "count", value: n, column: col });
    else if (f === "SUM" || f === "TOTAL") add({ kind: "sum", value: n, column: col });
    else add({ kind: "avg", value: n, column: col });
  };
  for (const raw of queries) {
    const sql = code(raw);
    if (/\bNATURAL\b/i.test(sql)) sameName = "all";
    for (const m of sql.matchAll(/\bUSING\s*\(([^)]*)\)/gi)) {
      if (sameName !== "all") { for (const n of m[1]!.split(",")) sameName.add(bare(n.trim())); }
    }
    for (const m of sql.matchAll(new RegExp(`${AGG}\\s*${OP}\\s*${NUM}`, "gi"))) {
      aggregate(m[1]!, m[2], m[3]!, Number(m[5]));
    }
    for (const m of sql.matchAll(new RegExp(`${NUM}\\s*${OP}\\s*${AGG}`, "gi"))) {
      aggregate(m[3]!, m[4], m[5]!, Number(m[1]));
    }
    const limit = /\bLIMIT\s+(\d+)(?:\s*(?:OFFSET\s+(\d+)|,\s*(\d+)))?/gi;
    for (const m of sql.matchAll(limit)) {
      // LIMIT n OFFSET m; LIMIT m, n
      const n = Number(m[3] !== undefined ? m[3] : m[1]);
      const off = Number(m[2] ?? (m[3] !== undefined ? m[1] : 0));
      add({ kind: "rows", value: n + off, column: null });
      if (off > 0) add({ kind: "rows", value: off, column: null });
    }
    const named = (x: string): boolean => !/^\d/.test(x) && !KEYWORDS.has(x);
    // An arithmetic operator after the second column makes it an offset, not an equality.
    const equal = new RegExp(
      `${COLUMN}\\s*(?:==|=|\\bIS\\b)\\s*${COLUMN}(?![\\w$]|\\s*[-+*/%|.(])`,
      "gi",
    );
    for (const m of sql.matchAll(equal)) {
      const a = bare(m[1]!);
      const b = bare(m[2]!);
      if (a !== b && named(a) && named(b)) equalities.push([a, b]);
    }
    const plus = new RegExp(`${COLUMN}\\s*=\\s*${COLUMN}\\s*([-+])\\s*(\\d+(?:\\.\\d+)?)`, "gi");
    for (const m of sql.matchAll(plus)) {
      const a = bare(m[1]!);
      const b = bare(m[2]!);
      const n = Number(m[4]) * (m[3] === "-" ? -1 : 1);
      if (named(a) && named(b)) offsets.push([a, b, n]);
    }
    const plusLeft = new RegExp(
      `${COLUMN}\\s*([-+])\\s*(\\d+(?:\\.\\d+)?)\\s*=\\s*${COLUMN}`,
      "gi",
    );
    for (const m of sql.matchAll(plusLeft)) {
      const a = bare(m[4]!);
      const b = bare(m[1]!);
      const n = Number(m[3]) * (m[2] === "-" ? -1 : 1);
      if (named(a) && named(b)) offsets.push([a, b, n]);
    }
  }
  // (SELECT count(*) FROM t WHERE ...) <= 3: a group of t's rows of that size
  for (const c of subqueryCounts(queries)) {
    add({ kind: c.kind, value: c.value, column: c.column, table: c.table });
  }
  const compares: ColumnComparison[] = [];
  const atoms = queryAtoms(queries, compares);
  return { sizes, equalities, offsets, atoms, compares, sameName };
}

const KEYWORDS = new Set(["null", "true", "false", "not", "and", "or", "select", "distinct"]);

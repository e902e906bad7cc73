/**
 * Query pairs from published work on SQL equivalence, translated to SQLite:
 * VeriEQL's Literature and Calcite sets (`VeriEQL/VeriEQL`,
 * benchmarks/literature/literature.jsonlines and
 * benchmarks/calcite/calcite2.jsonlines, with VeriEQL's verdicts from
 * experiments/2023_03_27/*.out) and SQLSolver's Calcite pairs
 * (`SJTU-IPADS/SQLSolver`, sqlsolver_data/calcite/calcite_tests, each odd
 * line equivalent to the next, on sqlsolver_data/schemas/calcite_test.base.schema.sql).
 * VeriEQL's pairs are taken as VeriEQL ran them (the `pair` of its
 * experiments output, which for 13 Literature pairs is its own rewrite of the
 * benchmark's: `IN` for `EXISTS`, `JOIN` for `NATURAL JOIN`), since its
 * verdicts are about those.
 *
 * The data is not in the repository (VeriEQL's has no licence): clone both
 * repositories into bench/data/ (git-ignored):
 *
 *     git clone --depth 1 https://github.com/VeriEQL/VeriEQL bench/data/VeriEQL
 *     git clone --depth 1 https://github.com/SJTU-IPADS/SQLSolver bench/data/SQLSolver
 *
 * Translation: VeriEQL's schema becomes CREATE TABLE statements with the
 * declared types as written (INT, VARCHAR, DATE, BOOLEAN), NOT NULL, and
 * PRIMARY KEY (its columns NOT NULL too, as the SQL standard has them; SQLite
 * alone would allow NULL) and FOREIGN KEY constraints. A query is rewritten
 * only where SQLite's grammar differs (a parenthesised member of a UNION,
 * `(R UNION ALL S)` as a table, `$f2` names, `OFFSET n ROWS FETCH NEXT m
 * ROWS ONLY`, MySQL's `IF()`); a pair of which either query still does not compile on
 * SQLite, or has VeriEQL's symbolic predicates (`B1(X)`), is left out.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Which published set a pair comes from. */
export type PublishedSet = "literature" | "calcite" | "sqlsolver";

/** One pair, translated. */
export interface PublishedPair {
  readonly set: PublishedSet;
  readonly index: number;
  readonly name: string;
  /** The schema script (CREATE TABLE statements). */
  readonly schema: string;
  readonly a: string;
  readonly b: string;
  /** VeriEQL's verdict (NEQ: refuted, EQU, TMO, ...); SQLSolver's pairs are all "EQU". */
  readonly verdict: string;
  /** Why the pair is left out, or null when it translates to SQLite. */
  readonly untranslatable: string | null;
}

interface VeriEqlEntry {
  readonly index: number;
  readonly name?: string;
  readonly schema: Record<string, Record<string, string | null>>;
  readonly constraint: readonly Record<string, unknown>[] | null;
  readonly pair: readonly [string, string];
  readonly "has-symbolic-predicates"?: boolean;
}

type Ref = { readonly value: string };

function split(ref: string): [string, string] {
  const at = ref.indexOf("__");
  return [ref.slice(0, at), ref.slice(at + 2)];
}

/** VeriEQL's schema and constraints as CREATE TABLE statements. */
export function veriEqlSchema(
  schema: VeriEqlEntry["schema"],
  constraints: VeriEqlEntry["constraint"],
): string {
  const notNull = new Set<string>();
  const primary = new Map<string, string[]>();
  const foreign = new Map<string, { cols: string[]; parent: string; parentCols: string[] }[]>();
  for (const c of constraints ?? []) {
    if ("not_null" in c) notNull.add((c["not_null"] as Ref).value);
    if ("primary" in c) {
      const refs = (c["primary"] as Ref[]).map((r) => split(r.value));
      primary.set(refs[0]![0], refs.map((r) => r[1]));
      for (const [t, col] of refs) notNull.add(`${t}__${col}`);
    }
    if ("foreign" in c) {
      const [child, parent] = (c["foreign"] as Ref[]).map((r) => split(r.value));
      const list = foreign.get(child![0]) ?? [];
      list.push({ cols: [child![1]], parent: parent![0], parentCols: [parent![1]] });
      foreign.set(child![0], list);
    }
  }
  return Object.entries(schema).map(([table, cols]) => {
    const parts = Object.entries(cols).map(([name, type]) =>
      `${name}${type ? ` ${type}` : ""}${notNull.has(`${table}__${name}`) ? " NOT NULL" : ""}`
    );
    const pk = primary.get(table);
    if (pk !== undefined) parts.push(`PRIMARY KEY (${pk.join(", ")})`);
    for (const fk of foreign.get(table) ?? []) {
      parts.push(
        `FOREIGN KEY (${fk.cols.join(", ")}) REFERENCES ${fk.parent} (${fk.parentCols.join(", ")})`,
      );
    }
    return `CREATE TABLE ${table} (${parts.join(", ")});`;
  }).join("\n");
}

/** Splits SQL at top-level set operators, keeping the operators. */
function topLevelParts(sql: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (depth === 0) {
      const m = /^\s(UNION ALL|UNION|INTERSECT|EXCEPT)\s/i.exec(sql.slice(i));
      if (m !== null) {
        parts.push(sql.slice(start, i), m[1]!);
        i += m[0].length - 1;
        start = i + 1;
      }
    }
  }
  parts.push(sql.slice(start));
  return parts.map((p) => p.trim());
}

/** Rewrites what SQLite's grammar lacks; the meaning stays. */
export function toSqlite(sql: string): string {
  let s = sql.trim().replace(/;$/, "");
  // (R2 UNION ALL R3) as a table
  s = s.replace(
    /\(\s*(\w+)\s+UNION ALL\s+(\w+)\s*\)/gi,
    "(SELECT * FROM $1 UNION ALL SELECT * FROM $2)",
  );
  // $f2 and the like are names in Calcite, parameters in SQLite
  s = s.replace(/(?<![\w"])(\$\w+)/g, '"$1"');
  // OFFSET n ROWS FETCH NEXT m ROWS ONLY
  s = s.replace(
    /\bOFFSET\s+(\d+)\s+ROWS?\s+FETCH\s+(?:NEXT|FIRST)\s+(\d+)\s+ROWS?\s+ONLY\b/gi,
    "LIMIT $2 OFFSET $1",
  );
  s = s.replace(/\bFETCH\s+(?:NEXT|FIRST)\s+(\d+)\s+ROWS?\s+ONLY\b/gi, "LIMIT $1");
  s = s.replace(/\bOFFSET\s+(\d+)\s+ROWS?\b/gi, "LIMIT -1 OFFSET $1");
  // MySQL's IF() is SQLite's iif()
  s = s.replace(/\bIF\s*\(/gi, "iif(");
  // DATE '2014-01-01' is the text in SQLite
  s = s.replace(/\bDATE\s+('[^']*')/gi, "$1");
  s = valuesWithColumns(s);
  // (SELECT ...) UNION ALL (SELECT ...): SQLite takes no parentheses there
  const parts = topLevelParts(s);
  if (parts.length > 1) {
    s = parts.map((p, i) => i % 2 === 1 || !p.startsWith("(") ? p : `SELECT * FROM ${p}`)
      .join(" ");
  }
  return s;
}

/** `(VALUES (1, 2)) AS t (X, Y)`: SQLite names VALUES columns column1, column2, ... */
function valuesWithColumns(sql: string): string {
  let s = sql;
  for (let from = 0;;) {
    const at = s.toUpperCase().indexOf("(VALUES", from);
    if (at < 0) return s;
    let depth = 0;
    let end = at;
    for (; end < s.length; end++) {
      if (s[end] === "(") depth++;
      else if (s[end] === ")" && --depth === 0) break;
    }
    const m = /^\s+AS\s+(\w+)\s*\(([^)]*)\)/i.exec(s.slice(end + 1));
    if (m === null) {
      from = at + 1;
      continue;
    }
    const columns = m[2]!.split(",").map((c, i) => `column${i + 1} AS ${c.trim()}`);
    const replaced = `(SELECT ${columns.join(", ")} FROM ${s.slice(at, end + 1)}) AS ${m[1]}`;
    s = s.slice(0, at) + replaced + s.slice(end + 1 + m[0].length);
    from = at + 1;
  }
}

function compiles(schema: string, sql: string): string | null {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(schema);
    db.prepare(sql);
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    db.close();
  }
}

/** VeriEQL's verdict per pair, and the pair as VeriEQL ran it (its own rewrite of a few). */
function verdicts(file: string): Map<number, { state: string; pair: readonly [string, string] }> {
  const out = new Map<number, { state: string; pair: readonly [string, string] }>();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const d = JSON.parse(line) as {
      index: number;
      states: string[] | null;
      pair: [string, string];
    };
    out.set(d.index, { state: d.states?.at(-1) ?? "none", pair: d.pair });
  }
  return out;
}

function veriEqlSet(
  set: PublishedSet,
  benchmark: string,
  experiments: string,
): PublishedPair[] {
  const states = verdicts(experiments);
  return fs.readFileSync(benchmark, "utf8").split("\n").filter((l) => l.trim() !== "").map(
    (line) => {
      const e = JSON.parse(line) as VeriEqlEntry;
      const schema = veriEqlSchema(e.schema, e.constraint);
      // The verdict is about the pair VeriEQL ran, which for a few pairs is
      // its own rewrite of the benchmark's (IN for EXISTS, JOIN for NATURAL JOIN).
      const ran = states.get(e.index)?.pair ?? e.pair;
      const [a, b] = ran.map(toSqlite) as [string, string];
      const symbolic = /\bB\d?\s*\(/.test(ran.join(" "));
      const why = symbolic ? "symbolic predicates" : compiles(schema, a) ?? compiles(schema, b);
      return {
        set,
        index: e.index,
        name: e.name ?? String(e.index),
        schema,
        a,
        b,
        verdict: states.get(e.index)?.state ?? "none",
        untranslatable: why,
      };
    },
  );
}

/**
 * Reads every pair of the three sets.
 *
 * @param data the folder holding the VeriEQL and SQLSolver clones
 * @returns the pairs, translatable or not
 * @throws {Error} naming the clone to make when one is missing
 */
export function publishedPairs(data: string): PublishedPair[] {
  const veri = path.join(data, "VeriEQL");
  const solver = path.join(data, "SQLSolver");
  for (const [dir, repo] of [[veri, "VeriEQL/VeriEQL"], [solver, "SJTU-IPADS/SQLSolver"]]) {
    if (!fs.existsSync(dir!)) {
      throw new Error(
        `${dir} is missing: git clone --depth 1 https://github.com/${repo} ${dir}`,
      );
    }
  }
  const pairs = [
    ...veriEqlSet(
      "literature",
      path.join(veri, "benchmarks/literature/literature.jsonlines"),
      path.join(veri, "experiments/2023_03_27/literature.out"),
    ),
    ...veriEqlSet(
      "calcite",
      path.join(veri, "benchmarks/calcite/calcite2.jsonlines"),
      path.join(veri, "experiments/2023_03_27/calcite.out"),
    ),
  ];
  const schema = fs.readFileSync(
    path.join(solver, "sqlsolver_data/schemas/calcite_test.base.schema.sql"),
    "utf8",
  );
  const lines = fs.readFileSync(path.join(solver, "sqlsolver_data/calcite/calcite_tests"), "utf8")
    .split("\n").filter((l) => l.trim() !== "");
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const a = toSqlite(lines[i]!);
    const b = toSqlite(lines[i + 1]!);
    pairs.push({
      set: "sqlsolver",
      index: i / 2,
      name: `line ${i + 1}`,
      schema,
      a,
      b,
      verdict: "EQU",
      untranslatable: compiles(schema, a) ?? compiles(schema, b),
    });
  }
  return pairs;
}

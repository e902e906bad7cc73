/**
 * Writing back the storage class (INTEGER or REAL) of whole numbers that
 * generated columns tell apart, for `db diff --sql`.
 *
 * @module
 */
import type { SqliteRow, SqliteValue } from "../sqlite/value.ts";
import type { TableSchema } from "./schema.ts";
import { foldName } from "./names.ts";
import { ident, sqlLiteral } from "../sqlite/sql_text.ts";

/** Literals the sqlite3 shell of any version reads back exactly. */
const EXACT = { exact: true } as const;

/**
 * 1 and 1.0 are the same value to `IS` (and to this diff), and the values
 * read here are both the number 1, written as `1`; but a generated column
 * (`typeof(a)`, `a || ''`) tells them apart. So after a row of a table with
 * generated columns is written, the written columns that can hold either
 * (no affinity, a whole number) are flipped between INTEGER and REAL one at
 * a time in Gray-code order, each statement only while the row's generated
 * values are not yet AFTER's: the row ends in the combination AFTER has
 * (most rows match at once and no statement changes them). At most 6
 * such columns a row are tried.
 */
export function storageClassFlips(
  table: TableSchema,
  gen: ReadonlySet<string>,
  values: SqliteRow,
  where: string,
): string[] {
  if (gen.size === 0) return [];
  const byFold = new Map(Object.keys(values).map((c) => [foldName(c), c]));
  const keyFolded = new Set(table.key.map(foldName));
  const candidates = table.columns.filter((c) =>
    c.hidden === 0 && !keyFolded.has(foldName(c.name)) && noAffinity(c.type) &&
    wholeNumber(values[byFold.get(foldName(c.name)) ?? ""])
  ).map((c) => c.name).slice(0, 6);
  const target = [...gen].filter((g) => byFold.has(g)).map((g) => {
    const name = byFold.get(g)!;
    return `+${ident(name)} IS ${sqlLiteral(values[name]!, EXACT)} COLLATE BINARY`;
  });
  if (candidates.length === 0 || target.length === 0) return [];
  const T = ident(table.name);
  const guard = `${where} AND NOT (${target.join(" AND ")})`;
  const out: string[] = [];
  for (let i = 1; i < 2 ** candidates.length; i++) {
    const c = ident(candidates[Math.log2(i & -i)]!);
    out.push(
      `UPDATE ${T} SET ${c} = CASE typeof(${c}) WHEN 'integer' THEN CAST(${c} AS REAL) WHEN 'real' THEN CAST(${c} AS INTEGER) ELSE ${c} END WHERE ${guard};`,
    );
  }
  return out;
}

/** Whether a declared type gives no affinity (BLOB): 1 and 1.0 are both kept as they are. */
function noAffinity(type: string): boolean {
  const t = type.toUpperCase();
  if (/INT|CHAR|CLOB|TEXT|REAL|FLOA|DOUB/.test(t)) return false;
  return t === "" || t.includes("BLOB") || t === "ANY";
}

function wholeNumber(v: SqliteValue | undefined): boolean {
  return typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));
}

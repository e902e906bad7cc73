/**
 * The values a search puts in each column: values from the given database,
 * and the queries' constants with their neighbours (equal, one above, one
 * below; case and whitespace variants of text; the day before and after a
 * date), each kept only where the column's declared type takes it.
 *
 * @module
 */
import type { SqliteValue } from "../sqlite/value.ts";
import type { QueryWords } from "./_tokens.ts";
import type { Affinity, SearchColumn, SearchTable } from "./schema.ts";
import type { GivenRows } from "./given.ts";

/** The values one column may take in a candidate. */
export interface ColumnPool {
  readonly column: SearchColumn;
  /** Distinct values the given database holds (a sample). */
  readonly real: readonly SqliteValue[];
  /** The queries' constants and their neighbours, of the column's type. */
  readonly boundary: readonly SqliteValue[];
  /** The queries' constants themselves, of the column's type (picked more often). */
  readonly exact: readonly SqliteValue[];
  /** Whether a query names the column. */
  readonly mentioned: boolean;
  /** How the column writes dates, if its values are dates. */
  readonly format: DateFormat;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;

/** How a column writes its dates: with a time or not, and a space or a T before it. */
export interface DateFormat {
  readonly date: boolean;
  readonly time: boolean;
  /** "T" when the given values write 2024-01-02T10:00:00. */
  readonly separator?: " " | "T";
  /** The column is TEXT: malformed dates (2024-1-2, 2024/01/02) are values it may hold. */
  readonly text?: boolean;
}

function dateText(d: Date, withTime: boolean, separator = " "): string {
  const iso = d.toISOString();
  return withTime ? `${iso.slice(0, 10)}${separator}${iso.slice(11, 19)}` : iso.slice(0, 10);
}

/** A date written as people and programs get it wrong: unpadded, with slashes. */
function malformed(s: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(s);
  if (m === null) return [];
  return [
    `${m[1]}-${Number(m[2])}-${Number(m[3])}${m[4]}`,
    `${m[1]}/${m[2]}/${m[3]}${m[4]}`,
  ];
}

/** Neighbours of a date or a year: the day or second before and after. */
function dateVariants(s: string, withTime: boolean, separator = " "): string[] {
  const out: string[] = [];
  const year = /^\d{4}$/.test(s) ? Number(s) : null;
  const m = DATE.exec(s);
  if (year !== null) {
    const start = new Date(Date.UTC(year, 0, 1));
    const end = new Date(Date.UTC(year + 1, 0, 1));
    for (const d of [start, end]) {
      out.push(
        dateText(d, withTime, separator),
        dateText(new Date(d.getTime() - 1000), withTime, separator),
      );
    }
  } else if (m !== null) {
    const t = Date.UTC(
      Number(m[1]),
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
      Number(m[6] ?? 0),
    );
    if (Number.isNaN(t)) return out;
    for (const delta of [0, -1000, 1000, -86_400_000, 86_400_000]) {
      out.push(dateText(new Date(t + delta), withTime, separator));
    }
    if (m[4] === undefined) out.push(dateText(new Date(t + 86_399_000), true, separator));
  }
  return out;
}

function textVariants(s: string): string[] {
  // "" and a text sharing nothing with the constant fail every pattern that needs a character.
  const out = [s, s.toLowerCase(), s.toUpperCase(), `${s} `, ` ${s}`, `${s}x`, "", "~"];
  if (s.length > 1) out.push(s.slice(0, -1), s.slice(1));
  if (/[%_]/.test(s)) {
    const plain = s.replaceAll("%", "");
    out.push(plain.replaceAll("_", "q"), s.replaceAll("%", "zz").replaceAll("_", "q"));
    out.push(plain.toLowerCase(), plain.toUpperCase(), `x${plain}x`);
  }
  return out;
}

function numberVariants(n: number, affinity: Affinity): number[] {
  const ints = Number.isInteger(n) ? [n, n - 1, n + 1] : [Math.floor(n), Math.ceil(n)];
  if (affinity === "INTEGER") return [...ints, 0, 1];
  return [...ints, n, n - 0.5, n + 0.5, n - 0.01, n + 0.01, 0, 1];
}

/**
 * The constants of the queries and their neighbours, as values a column of
 * this affinity holds with its declared type. `looksLikeDate` says the
 * column's values are dates, so years and dates get date neighbours.
 *
 * @param words the queries' constants
 * @param affinity the column's affinity
 * @param looksLikeDate whether its values are date text (and with a time)
 * @returns the values, without duplicates
 */
export function boundaryValues(
  words: QueryWords,
  affinity: Affinity,
  looksLikeDate: DateFormat,
): SqliteValue[] {
  const out: SqliteValue[] = [];
  const numeric = affinity === "INTEGER" || affinity === "REAL" || affinity === "NUMERIC" ||
    affinity === "BLOB";
  const textual = affinity === "TEXT" || affinity === "BLOB" ||
    (affinity === "NUMERIC" && looksLikeDate.date);
  if (numeric) {
    for (const n of words.numbers) out.push(...numberVariants(n, affinity));
    for (const s of words.strings) {
      if (/^-?\d+(\.\d+)?$/.test(s)) out.push(...numberVariants(Number(s), affinity));
    }
  }
  if (textual) {
    for (const s of words.strings) {
      // A column of dates gets dates: '2024-%' is a pattern, not a value of it.
      if (!looksLikeDate.date) out.push(...textVariants(s));
      else {
        const sep = looksLikeDate.separator ?? " ";
        const dates = dateVariants(s, looksLikeDate.time, sep);
        const year = /^(\d{4})-/.exec(s)?.[1];
        if (year !== undefined) dates.push(...dateVariants(year, looksLikeDate.time, sep));
        out.push(...dates);
        if (looksLikeDate.text === true) out.push(...dates.slice(0, 3).flatMap(malformed));
      }
    }
    if (looksLikeDate.date) {
      for (const n of words.numbers) {
        if (Number.isInteger(n) && n >= 1000 && n <= 9999) {
          out.push(...dateVariants(String(n), looksLikeDate.time, looksLikeDate.separator));
        }
      }
    }
    for (const n of words.numbers) if (affinity === "TEXT") out.push(String(n));
  }
  if (numeric && !looksLikeDate.date) {
    // 1 as well as 0 (a flag, a count of one), and a fraction where the type keeps one
    out.push(0, 1);
    if (affinity !== "INTEGER") out.push(0.5, 1.5);
  }
  const seen = new Set<string>();
  return out.filter((v) => {
    const k = `${typeof v}:${String(v)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Every column's pool for the tables of a search.
 *
 * @param tables the tables
 * @param real the sampled rows
 * @param words the queries' constants and names
 * @returns pools per table name, in column order
 */
export function columnPools(
  tables: readonly SearchTable[],
  real: GivenRows,
  words: QueryWords,
): Map<string, ColumnPool[]> {
  const pools = new Map<string, ColumnPool[]>();
  for (const t of tables) {
    const rows = real.sample(t.name);
    pools.set(
      t.name,
      t.columns.map((column, i) => {
        const seen = new Set<string>();
        const values: SqliteValue[] = [];
        for (const r of rows) {
          const v = r[i] ?? null;
          if (v === null) continue;
          const k = `${typeof v}:${String(v)}`;
          if (!seen.has(k)) {
            seen.add(k);
            values.push(v);
          }
        }
        const texts = values.filter((v): v is string => typeof v === "string");
        // Dates by their values, or by the declared type when there are none.
        const declared = /DATE|TIME/i.test(column.declaredType);
        const date = texts.length > 0 ? texts.every((v) => DATE.test(v)) : declared;
        const time = date &&
          (texts.some((v) => v.length > 10) ||
            (texts.length === 0 && /TIME/i.test(column.declaredType)));
        const separator = texts.some((v) => v[10] === "T") ? "T" : " ";
        const format: DateFormat = { date, time, separator, text: column.affinity === "TEXT" };
        const boundary = boundaryValues(words, column.affinity, format);
        const constants = new Set<SqliteValue>([...words.numbers, ...words.strings]);
        return {
          column,
          real: values,
          boundary,
          exact: boundary.filter((v) => constants.has(v)),
          mentioned: words.names.has(column.name.toLowerCase()),
          format,
        };
      }),
    );
  }
  return pools;
}

/**
 * A plain value of a column's type, for a column the sample says nothing about.
 *
 * @param affinity the column's affinity
 * @param i which one (0, 1, 2, ...)
 * @returns the value
 */
export function plainValue(affinity: Affinity, i: number): SqliteValue {
  if (affinity === "TEXT") return String.fromCharCode(97 + (i % 26));
  if (affinity === "REAL") return i + 0.5;
  return i + 1;
}

/**
 * The queries' constants themselves, per column of a table that a query
 * names, to look up given rows holding them: text for a TEXT column,
 * numbers for a numeric one, both otherwise.
 *
 * @param words the queries' constants and names
 * @returns the constants for a table's column
 */
export function probesFor(
  words: QueryWords,
): (table: SearchTable, column: string) => SqliteValue[] {
  return (table, column) => {
    if (!words.names.has(column.toLowerCase())) return [];
    const c = table.columns.find((x) => x.name === column);
    if (c === undefined) return [];
    if (c.affinity === "TEXT") return [...words.strings];
    if (c.affinity === "INTEGER" || c.affinity === "REAL") return [...words.numbers];
    return [...words.numbers, ...words.strings];
  };
}

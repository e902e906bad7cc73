/**
 * How PostgreSQL values become the values rows are compared with, the same
 * for a server (postgres.js) and PGlite:
 *
 * - NUMERIC stays the server's text (`12.50`), compared as an exact decimal;
 * - BIGINT becomes a `bigint`, exact beyond 2^53;
 * - dates, times, timestamps and intervals stay the server's ISO text
 *   (`2009-01-01 00:00:00`, DateStyle ISO, TimeZone UTC), so they compare
 *   as text, as the same values read from SQLite do;
 * - arrays become lists, JSON and JSONB values, BYTEA bytes.
 *
 * @module
 */

/** Type OIDs of PostgreSQL's date and time types, kept as their text. */
export const TEXT_TIME_TYPES: readonly number[] = [
  1082, // date
  1083, // time
  1114, // timestamp
  1184, // timestamptz
  1266, // timetz
  1186, // interval
];

/** The BIGINT (int8) type OID. */
export const INT8 = 20;

/** Session settings that make dates and times print as ISO text, in UTC. */
export const SESSION_SETTINGS: Readonly<Record<string, string>> = {
  DateStyle: "ISO, YMD",
  TimeZone: "UTC",
  IntervalStyle: "iso_8601",
};

/**
 * Parsers by type OID for PGlite's `parsers` option.
 *
 * @returns the parsers
 */
export function pgliteParsers(): Record<number, (text: string) => unknown> {
  const parsers: Record<number, (text: string) => unknown> = { [INT8]: (t) => BigInt(t) };
  for (const oid of TEXT_TIME_TYPES) parsers[oid] = (t) => t;
  return parsers;
}

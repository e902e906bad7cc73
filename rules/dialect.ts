/**
 * The SQL dialects the rules can read.
 *
 * @module
 */
import { UsageError } from "../lib/errors.ts";

/**
 * The SQL dialects the rules read. `sqlite` is the default.
 *
 * @example
 * ```ts
 * import { DIALECTS, ReadOnly } from "../mod.ts";
 * const rules = DIALECTS.map((dialect) => new ReadOnly({ dialect }));
 * rules.length; // 14
 * ```
 */
export const DIALECTS = [
  "sqlite",
  "postgres",
  "mysql",
  "mariadb",
  "bigquery",
  "db2",
  "hive",
  "redshift",
  "snowflake",
  "transactsql",
  "trino",
  "athena",
  "flinksql",
  "noql",
] as const;

/**
 * One of {@link DIALECTS} (`postgresql` is accepted as `postgres`).
 *
 * @example
 * ```ts
 * import { ReadOnly } from "./read_only.ts";
 * import type { Dialect } from "./dialect.ts";
 * import { Trace } from "../lib/eval/trace.ts";
 * const dialect: Dialect = "postgres";
 * const rule = new ReadOnly({ dialect });
 * const result = await rule.run(Trace.simple("q", { sql: "SELECT now()::date" }));
 * result; // { name: "read_only", stage: "generate", status: "PASS", detail: "" }
 * ```
 */
export type Dialect = typeof DIALECTS[number];

/**
 * Checks a dialect name given to a rule.
 *
 * @param dialect the name, e.g. `postgres`
 * @returns the dialect
 * @throws UsageError for an unknown name
 * @example
 * ```ts
 * import { toDialect } from "./dialect.ts";
 * toDialect("postgresql"); // "postgres"
 * ```
 */
export function toDialect(dialect: string | undefined): Dialect {
  const d = (dialect ?? "sqlite").toLowerCase();
  if (d === "postgresql") return "postgres";
  if ((DIALECTS as readonly string[]).includes(d)) return d as Dialect;
  throw new UsageError(
    `Unknown SQL dialect "${dialect}": use one of ${DIALECTS.join(", ")}`,
  );
}

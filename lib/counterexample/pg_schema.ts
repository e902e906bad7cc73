/**
 * The part of a PostgreSQL database's schema a search needs, read from the
 * catalog: the tables the queries read (PostgreSQL's own plan says which,
 * views expanded; a partition counts as its partitioned table), the tables
 * their foreign keys point to, and the views the queries name. PostgreSQL
 * keeps no `CREATE TABLE` text, so each table's is written from the
 * catalog: column types as `format_type` prints them, NOT NULL, generated
 * columns, and every PRIMARY KEY, UNIQUE, CHECK, EXCLUDE and FOREIGN KEY
 * constraint as `pg_get_constraintdef` prints it (foreign keys as ALTER
 * TABLE statements after every table, so a cycle of them still loads),
 * unique indexes as `pg_get_indexdef` prints them, and enum types.
 * Defaults, identities, sequences, triggers and other indexes are left out:
 * every INSERT gives every column a value, and the search needs no more.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { pgAffinity, pgText } from "./pg_sql.ts";
import type { SearchColumn, SearchForeignKey, SearchSchema, SearchTable } from "./schema.ts";
import { ident } from "../sqlite/sql_text.ts";

/** Runs one read-only statement on the given database. */
export type Execute = (sql: string) => Promise<Record<string, unknown>[]>;

/** A schema read from PostgreSQL, and what its tables need around them. */
export interface PgSchema {
  readonly schema: SearchSchema;
  /** `CREATE SCHEMA` and `CREATE TYPE` statements, before the tables. */
  readonly preamble: readonly string[];
  /** `ALTER TABLE ... ADD CONSTRAINT ... FOREIGN KEY` statements, after the tables. */
  readonly foreignKeySql: readonly string[];
  /** Each table's name in SQL (schema-qualified outside `public`), by its search name. */
  readonly sqlName: ReadonlyMap<string, string>;
}

interface Relation {
  readonly oid: number;
  readonly schema: string;
  readonly name: string;
  readonly kind: string;
  readonly visible: boolean;
  readonly root: number;
}

function qualified(r: Relation): string {
  return r.schema === "public" ? ident(r.name) : `${ident(r.schema)}.${ident(r.name)}`;
}

function searchName(r: Relation): string {
  return r.schema === "public" ? r.name : `${r.schema}.${r.name}`;
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0]!;
}

/** The relations a plan scans, by schema and name, and whether it writes. */
function planRelations(plan: unknown, out: { names: Set<string>; writes: boolean }): void {
  if (Array.isArray(plan)) {
    for (const p of plan) planRelations(p, out);
    return;
  }
  if (plan === null || typeof plan !== "object") return;
  const node = plan as Record<string, unknown>;
  if (node["Node Type"] === "ModifyTable") out.writes = true;
  const rel = node["Relation Name"];
  if (typeof rel === "string") {
    out.names.add(`${String(node["Schema"] ?? "")}\u0000${rel}`);
  }
  for (const v of Object.values(node)) if (typeof v === "object") planRelations(v, out);
}

/**
 * The relations a query scans, from its plan (EXPLAIN, never run).
 *
 * @throws {UsageError} for a query that writes or does not compile
 */
async function queryRelations(execute: Execute, sql: string, option: string): Promise<string[]> {
  let rows: Record<string, unknown>[];
  try {
    rows = await execute(`EXPLAIN (VERBOSE, FORMAT JSON) ${sql}`);
  } catch (e) {
    if (/read-only transaction/.test(message(e))) {
      throw new UsageError(
        `${option}: the query writes to the database; the search compares read-only queries, give a SELECT`,
      );
    }
    throw new UsageError(`${option}: ${message(e)}`, { cause: e });
  }
  let plan = rows[0]?.["QUERY PLAN"];
  if (typeof plan === "string") plan = JSON.parse(plan);
  const out = { names: new Set<string>(), writes: false };
  planRelations(plan, out);
  if (out.writes) {
    throw new UsageError(
      `${option}: the query writes to the database; the search compares read-only queries, give a SELECT`,
    );
  }
  return [...out.names];
}

async function relations(execute: Execute): Promise<Relation[]> {
  const rows = await execute(
    `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
       pg_table_is_visible(c.oid) AS visible,
       CASE WHEN c.relispartition THEN pg_partition_root(c.oid)::int ELSE c.oid::int END AS root
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
  );
  return rows.map((r) => ({
    oid: Number(r["oid"]),
    schema: String(r["schema"]),
    name: String(r["name"]),
    kind: String(r["kind"]),
    visible: r["visible"] === true,
    root: Number(r["root"]),
  }));
}

/** The relations each of some views reads (tables and views), by view. */
async function viewReads(
  execute: Execute,
  oids: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (oids.length === 0) return out;
  const rows = await execute(
    `SELECT DISTINCT r.ev_class::int AS view, d.refobjid::int AS ref
     FROM pg_rewrite r JOIN pg_depend d ON d.objid = r.oid
       AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
     WHERE r.ev_class IN (${oids.join(", ")}) AND d.refobjid <> r.ev_class`,
  );
  for (const r of rows) {
    const list = out.get(Number(r["view"])) ?? [];
    list.push(Number(r["ref"]));
    out.set(Number(r["view"]), list);
  }
  return out;
}

interface TableParts {
  readonly table: SearchTable;
  readonly foreignKeySql: string[];
  readonly types: string[];
  /** The oids of the tables its foreign keys point to. */
  readonly parents: number[];
}

async function readTable(
  execute: Execute,
  r: Relation,
  byOid: ReadonlyMap<number, Relation>,
): Promise<TableParts> {
  const cols = await execute(
    `SELECT a.attnum::int AS num, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
       a.attnotnull AS notnull, a.attgenerated::text AS generated,
       pg_get_expr(ad.adbin, ad.adrelid) AS expr, t.typtype::text AS typtype, t.oid::int AS typoid
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
     WHERE a.attrelid = ${r.oid} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
  );
  const cons = await execute(
    `SELECT conname AS name, contype::text AS type, pg_get_constraintdef(oid) AS def,
       conkey::int[] AS cols, confrelid::int AS parent, confkey::int[] AS pcols
     FROM pg_constraint WHERE conrelid = ${r.oid} AND contype IN ('p', 'u', 'f', 'c', 'x')
     ORDER BY contype <> 'p', conname`,
  );
  const idx = await execute(
    `SELECT pg_get_indexdef(i.indexrelid) AS def, i.indkey::text AS keys,
       (i.indpred IS NULL AND i.indexprs IS NULL) AS plain
     FROM pg_index i WHERE i.indrelid = ${r.oid} AND i.indisunique
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
     ORDER BY i.indexrelid`,
  );
  const nameOf = new Map(cols.map((c) => [Number(c["num"]), String(c["name"])]));
  const pk = cons.find((c) => c["type"] === "p");
  const pkCols = ((pk?.["cols"] ?? []) as number[]).map((n) => nameOf.get(n)!);
  const types: string[] = [];
  for (const c of cols) {
    if (c["typtype"] !== "e") continue;
    const labels = await execute(
      `SELECT enumlabel AS label FROM pg_enum WHERE enumtypid = ${
        Number(c["typoid"])
      } ORDER BY enumsortorder`,
    );
    types.push(
      `CREATE TYPE ${c["type"]} AS ENUM (${
        labels.map((l) => pgText(String(l["label"]))).join(", ")
      })`,
    );
  }
  const lines = cols.map((c) => {
    const generated = c["generated"] === "s" ? ` GENERATED ALWAYS AS (${c["expr"]}) STORED` : "";
    return `  ${ident(String(c["name"]))} ${c["type"]}${
      c["notnull"] === true ? " NOT NULL" : ""
    }${generated}`;
  });
  const foreignKeys: SearchForeignKey[] = [];
  const foreignKeySql: string[] = [];
  const parents: number[] = [];
  const uniqueSets: string[][] = pkCols.length > 0 ? [pkCols] : [];
  for (const c of cons) {
    const def = String(c["def"]);
    if (c["type"] !== "f") lines.push(`  CONSTRAINT ${ident(String(c["name"]))} ${def}`);
    if (c["type"] === "u") uniqueSets.push((c["cols"] as number[]).map((n) => nameOf.get(n)!));
    if (c["type"] !== "f") continue;
    const parent = byOid.get(Number(c["parent"]));
    if (parent === undefined) continue;
    parents.push(parent.oid);
    const parentCols = await execute(
      `SELECT attname AS name FROM pg_attribute WHERE attrelid = ${parent.oid}
         AND attnum = ANY (ARRAY[${(c["pcols"] as number[]).join(", ")}]::int2[])
       ORDER BY array_position(ARRAY[${(c["pcols"] as number[]).join(", ")}]::int2[], attnum)`,
    );
    foreignKeys.push({
      columns: (c["cols"] as number[]).map((n) => nameOf.get(n)!),
      parent: searchName(parent),
      parentColumns: parentCols.map((p) => String(p["name"])),
    });
    foreignKeySql.push(
      `ALTER TABLE ${qualified(r)} ADD CONSTRAINT ${ident(String(c["name"]))} ${def}`,
    );
  }
  for (const i of idx) {
    if (i["plain"] === true) {
      uniqueSets.push(String(i["keys"]).split(" ").map((n) => nameOf.get(Number(n))!));
    }
  }
  const columns: SearchColumn[] = cols.filter((c) => c["generated"] !== "s").map((c) => {
    const name = String(c["name"]);
    const type = String(c["type"]);
    return {
      name,
      declaredType: type,
      affinity: pgAffinity(type),
      notNull: c["notnull"] === true,
      pk: pkCols.indexOf(name) + 1,
    };
  });
  const single = pkCols.length === 1 ? columns.find((c) => c.name === pkCols[0]) : undefined;
  return {
    table: {
      name: searchName(r),
      createSql: `CREATE TABLE ${qualified(r)} (\n${lines.join(",\n")}\n)`,
      indexSql: idx.map((i) => String(i["def"])),
      columns,
      foreignKeys,
      uniqueSets,
      rowidAlias: single !== undefined && /^(smallint|integer|bigint)$/.test(single.declaredType)
        ? single.name
        : null,
      withoutRowid: true,
    },
    foreignKeySql,
    types,
    parents,
  };
}

/**
 * Reads the schema two queries need from the PostgreSQL catalog.
 *
 * @param execute runs a read-only statement on the given database
 * @param queries the queries and the options that gave them
 * @param names the identifiers the queries name (tables and views are also found by name)
 * @returns the schema and the statements around it
 * @throws {UsageError} for a query that writes or does not compile
 */
export async function readPgSchema(
  execute: Execute,
  queries: readonly { readonly sql: string; readonly option: string }[],
  names: ReadonlySet<string>,
): Promise<PgSchema> {
  const all = await relations(execute);
  const byOid = new Map(all.map((r) => [r.oid, r]));
  const byName = new Map(all.map((r) => [`${r.schema}\u0000${r.name}`, r]));
  const wanted = new Set<number>();
  const want = (r: Relation | undefined): void => {
    if (r !== undefined) wanted.add(r.root);
  };
  for (const q of queries) {
    for (const n of await queryRelations(execute, q.sql, q.option)) want(byName.get(n));
  }
  // By name too: a scan the planner proved empty (WHERE false) is not in the plan.
  for (const r of all) if (r.visible && names.has(r.name.toLowerCase())) want(r);
  // Views, and what they read, transitively.
  const views: Relation[] = [];
  let frontier = [...wanted].filter((o) => byOid.get(o)?.kind === "v");
  while (frontier.length > 0) {
    const reads = await viewReads(execute, frontier);
    frontier = [];
    for (const [view, refs] of reads) {
      views.push(byOid.get(view)!);
      for (const ref of refs) {
        const r = byOid.get(ref);
        if (r === undefined || wanted.has(r.root)) continue;
        want(r);
        if (r.kind === "v") frontier.push(r.oid);
      }
    }
  }
  const parts = new Map<number, TableParts>();
  const visit = async (oid: number): Promise<void> => {
    const r = byOid.get(oid);
    if (parts.has(oid) || r === undefined || r.kind === "v") return;
    const p = await readTable(execute, r, byOid);
    parts.set(oid, p);
    for (const parent of p.parents) await visit(parent);
  };
  for (const oid of wanted) await visit(oid);
  // Parents first, so rows can be inserted in this order.
  const ordered: TableParts[] = [];
  const placed = new Set<number>();
  const place = (oid: number, path: Set<number>): void => {
    const p = parts.get(oid);
    if (p === undefined || placed.has(oid) || path.has(oid)) return;
    path.add(oid);
    for (const parent of p.parents) place(parent, path);
    placed.add(oid);
    ordered.push(p);
  };
  for (const oid of parts.keys()) place(oid, new Set());
  // A view after the views it reads.
  const viewSql: string[] = [];
  const done = new Set<number>();
  const reads = await viewReads(execute, views.map((v) => v.oid));
  const addView = async (v: Relation): Promise<void> => {
    if (done.has(v.oid)) return;
    done.add(v.oid);
    for (const ref of reads.get(v.oid) ?? []) {
      const r = byOid.get(ref);
      if (r?.kind === "v") await addView(r);
    }
    const def = await execute(`SELECT pg_get_viewdef(${v.oid}, true) AS def`);
    viewSql.push(
      `CREATE VIEW ${qualified(v)} AS\n${String(def[0]?.["def"]).trim().replace(/;$/, "")}`,
    );
  };
  for (const v of views) await addView(v);
  const schemas = new Set(
    [...parts.keys(), ...views.map((v) => v.oid)].map((o) => byOid.get(o)!.schema)
      .filter((s) => s !== "public"),
  );
  return {
    schema: {
      tables: ordered.map((p) => p.table),
      read: new Set(
        ordered.filter((p) => wanted.has([...parts].find(([, q]) => q === p)![0])).map((p) =>
          p.table.name
        ),
      ),
      viewSql,
    },
    preamble: [
      ...[...schemas].map((s) => `CREATE SCHEMA IF NOT EXISTS ${ident(s)}`),
      ...new Set(ordered.flatMap((p) => p.types)),
    ],
    foreignKeySql: ordered.flatMap((p) => p.foreignKeySql),
    sqlName: new Map(
      [...parts].map(([oid, p]) => [p.table.name, qualified(byOid.get(oid)!)]),
    ),
  };
}

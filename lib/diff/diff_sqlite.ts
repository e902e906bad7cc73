/**
 * Diffing two SQLite files: `diffSqliteDatabases`.
 *
 * @module
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { blameDamagedFile } from "../sqlite/damaged.ts";
import { type DiffOptions, diffSettings } from "./options.ts";
import { readSchema, type SideSchema, type TableSchema } from "./schema.ts";
import { type ColumnsDiff, diffColumns, diffObjects, tableSchemaChanged } from "./schema_diff.ts";
import type { TableData } from "./table_data.ts";
import { type ByteBudget, KeptRows } from "./_kept_rows.ts";
import type { DiffListener, RowEvent } from "./listener.ts";
import { foldName } from "./names.ts";
import { EngineStarter, type PageOnes } from "./_engine.ts";
import { utf16SchemaError } from "./_utf8_copy.ts";
import { claimTrees, openPageSide, type PageSide } from "./_page_sides.ts";
import { schemaPageOne } from "./_schema_page_one.ts";
import { identicalFiles } from "./_identical_files.ts";
import { Aim } from "./_aim.ts";
import { LeafMap } from "../sqlite_format/tree_walk.ts";
import {
  type StrategyContext,
  TABLE_STRATEGIES,
  type TableJob,
  type TablePlan,
  type TableStrategy,
} from "./_strategies.ts";
import type {
  ChangeStatus,
  DatabaseChange,
  DatabaseDiff,
  DiffSettings,
  SkippedTable,
  TableDiff,
} from "./types.ts";
import { DIFF_FORMAT_VERSION } from "./types.ts";

/**
 * Diffs two SQLite files, read-only. A side that is null or a missing file
 * does not exist, so the database shows as added or removed (with every
 * table and row of the other side). Neither file is ever written or locked,
 * WAL files included.
 *
 * @param before the file before, or null
 * @param after the file after, or null
 * @param options schema/data planes, row cap, tables
 * @returns the diff document with one database (none when neither exists)
 * @throws {SqliteOpenError} when an existing side is not a readable SQLite file
 * @example
 * ```ts
 * import { diffSqliteDatabases } from "./diff_sqlite.ts";
 * const diff = await diffSqliteDatabases(null, "examples/chinook/Chinook_Sqlite.sqlite");
 * diff.databases[0]?.status; // "added"
 * ```
 */
export async function diffSqliteDatabases(
  before: string | null,
  after: string | null,
  options: DiffOptions = {},
): Promise<DatabaseDiff> {
  return await streamSqliteDiff(before, after, options, {});
}

/**
 * Diffs two SQLite files like {@link diffSqliteDatabases}, telling `listener`
 * every table and every row change as it is found (all of them, whatever
 * `maxRows` keeps in the returned document). Streamed outputs such as
 * `db diff --sql` are listeners.
 *
 * @param before the file before, or null
 * @param after the file after, or null
 * @param options schema/data planes, row cap, tables
 * @param listener what to call as the diff goes
 * @returns the diff document, as {@link diffSqliteDatabases} returns it
 * @throws {SqliteOpenError} when an existing side is not a readable SQLite file
 * @example
 * ```ts
 * import { streamSqliteDiff } from "./diff_sqlite.ts";
 * const names: string[] = [];
 * await streamSqliteDiff(null, "examples/db_agent/users.db", { maxRows: 0 }, {
 *   table: (t) => void names.push(t.name),
 * });
 * names; // ["todos", "users"]
 * ```
 */
export async function streamSqliteDiff(
  before: string | null,
  after: string | null,
  options: DiffOptions,
  listener: DiffListener,
): Promise<DatabaseDiff> {
  const settings = diffSettings(options);
  const name = nodePath.basename(after ?? before ?? "");
  const change = await diffDatabasePair({
    name,
    before,
    after,
    settings,
    listener,
    checkKeys: true,
  });
  return {
    version: DIFF_FORMAT_VERSION,
    settings,
    databases: change.exists_before || change.exists_after ? [change] : [],
  };
}

/** What {@link diffDatabasePair} compares. */
export interface DatabasePair {
  /** The database's name in the document. */
  readonly name: string;
  readonly before: string | null;
  readonly after: string | null;
  readonly settings: DiffSettings;
  /** Told every table and row change as the diff goes. */
  readonly listener?: DiffListener;
  /**
   * How tables' rows are diffed, tried in order (default
   * {@link TABLE_STRATEGIES}); the tests give the engine's alone to compare
   * the two.
   */
  readonly strategies?: readonly TableStrategy[];
  /**
   * Whether a chosen key (`keys`) on a table neither file has is an error:
   * a diff of two files; the pairs of two folders are checked together
   * (diff_filesystem.ts).
   */
  readonly checkKeys?: boolean;
}

function exists(path: string | null): path is string {
  if (path === null) return false;
  try {
    fs.statSync(path);
    return true;
  } catch (e) {
    // Only a path with nothing there means "no database on this side": a
    // symlink loop or a denied folder is there, and opening it says why not.
    const code = (e as { code?: string }).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

/**
 * Diffs one database across the two sides: each file is read through the
 * file reader (lib/sqlite_format/), its trees walked and checked before a
 * row is told, then each table's rows are diffed by the first strategy of
 * the list that takes it (_strategies.ts); the SQLite engine starts only
 * for what the pages cannot answer.
 *
 * @param pair the name, the two paths and the settings
 * @returns the database's change
 */
export async function diffDatabasePair(pair: DatabasePair): Promise<DatabaseChange> {
  const { settings } = pair;
  const listener = pair.listener ?? {};
  const before = exists(pair.before) ? pair.before : null;
  const after = exists(pair.after) ? pair.after : null;
  const base = {
    name: pair.name,
    path: after ?? before ?? pair.after ?? pair.before ?? "",
    before_path: before,
    after_path: after,
    exists_before: before !== null,
    exists_after: after !== null,
  };
  if (before === null && after === null) {
    return { ...base, status: "unchanged", tables: [], objects: [], skipped: [], error: null };
  }
  const pairByRowid = settings.pair_by === "rowid";
  const engine = new EngineStarter(before, after);
  const pages: { before: PageSide | null; after: PageSide | null } = { before: null, after: null };
  try {
    if (before !== null) pages.before = openPageSide(before, settings.tables, pairByRowid);
    if (after !== null) pages.after = openPageSide(after, settings.tables, pairByRowid);
    engine.readPagesOf(pages);
    for (const side of [pages.before, pages.after]) {
      if (
        side !== null && side.schema === null && (side.src.header.encoding ?? "utf-8") !== "utf-8"
      ) {
        throw utf16SchemaError(side);
      }
    }
    const whole = settings.tables === null;
    if (!whole && pages.before !== null && pages.after !== null) {
      engine.showPageOnes(pageOnes(pages.before, pages.after));
    }
    // Every tree the diff reads is walked before the engine reads anything;
    // for two files of one size, their leaves are noted to check in file order.
    const { before: pa, after: pb } = pages;
    const sameSize = whole && pa !== null && pb !== null && pa.src.pages === pb.src.pages;
    const leaves = sameSize && settings.include_data ? new LeafMap(pa.src.pages) : null;
    if (settings.include_data) {
      if (pa !== null) claimTrees(pa, whole, leaves);
      if (pb !== null) claimTrees(pb, whole);
    }
    // Files of one size may be page for page the same.
    const identical = leaves !== null && await identicalFiles(pa!, pb!, leaves);
    const sides = await schemas(pages, engine, settings);
    const aim = new Aim(settings);
    if (pair.checkKeys === true) {
      const present = [sides.before, sides.after].flatMap((x) =>
        x === null ? [] : [...x.tables.values()].map((t) => t.name)
      );
      const where = [before, after].filter((p) => p !== null).join(" or ");
      const unknown = aim.unknownKeyTable(present, where);
      if (unknown !== null) throw unknown;
    }
    const ctx: StrategyContext = { settings, pages, engine, identical, aim };
    const jobs = tableJobs(sides, settings, pair.strategies ?? TABLE_STRATEGIES, ctx);
    for (const job of jobs) await job.plan?.prepare?.();
    listener.start?.(sides);
    const { tables, skipped } = await diffTables(jobs, settings, listener);
    const named = tableFilter(settings);
    const keep = (name: string) => named(name) && !aim.tableIgnored(name);
    const objects = settings.include_schema
      ? diffObjects(sides.before?.objects ?? [], sides.after?.objects ?? [], keep)
      : [];
    const status: ChangeStatus = before === null
      ? "added"
      : after === null
      ? "removed"
      : tables.some((t) => t.status !== "unchanged") || objects.length > 0
      ? "changed"
      : "unchanged";
    const change: DatabaseChange = { ...base, status, tables, objects, skipped, error: null };
    listener.done?.(change);
    return change;
  } catch (e) {
    // SQLite's "malformed" names neither file: find the damaged one.
    throw await blameDamagedFile(e, [before, after].filter((p) => p !== null));
  } finally {
    await engine.close();
    pages.before?.src.close();
    pages.after?.src.close();
  }
}

/** Page 1 of each file for the engine, holding only the named tables' schema rows (or the files' own). */
function pageOnes(a: PageSide, b: PageSide): PageOnes {
  const x = schemaPageOne(a.path, a.rows);
  const y = x === null ? null : schemaPageOne(b.path, b.rows);
  return x !== null && y !== null ? { before: x, after: y } : { before: null, after: null };
}

/** Both sides' schemas: read from their pages, or by SQLite when the pages cannot tell. */
async function schemas(
  pages: { readonly before: PageSide | null; readonly after: PageSide | null },
  engine: EngineStarter,
  settings: DiffSettings,
): Promise<{ before: SideSchema | null; after: SideSchema | null }> {
  const { before, after } = pages;
  if ((before === null || before.schema !== null) && (after === null || after.schema !== null)) {
    return { before: before?.schema ?? null, after: after?.schema ?? null };
  }
  const db = await engine.db();
  const read = { pairByRowid: settings.pair_by === "rowid", tables: settings.tables };
  return {
    before: before === null ? null : readSchema(db, "main", read),
    after: after === null ? null : readSchema(db, engine.afterSchema, read),
  };
}

function tableFilter(settings: DiffSettings): (name: string) => boolean {
  if (settings.tables === null) return () => true;
  const wanted = new Set(settings.tables.map(foldName));
  return (name) => wanted.has(foldName(name));
}

/** A table of the diff with how its rows are diffed (null: they are not). */
interface Job extends TableJob {
  readonly plan: TablePlan | null;
  /** Why its rows are not compared, when they are not (an internal table; a virtual one is still told). */
  readonly skip: string | null;
  readonly virtual: boolean;
  /** The columns `ignore` leaves out of its rows (either side's). */
  readonly ignored: readonly string[];
}

/**
 * The tables of both sides, paired by name as SQLite compares names (ASCII
 * case folded: "Users" renamed to "users" is the same table, under its after
 * name), in name order, each with the plan of the first strategy that takes it.
 */
function tableJobs(
  sides: { readonly before: SideSchema | null; readonly after: SideSchema | null },
  settings: DiffSettings,
  strategies: readonly TableStrategy[],
  ctx: StrategyContext,
): Job[] {
  const keep = tableFilter(settings);
  const byName = (side: SideSchema | null): Map<string, TableSchema> =>
    new Map([...side?.tables.values() ?? []].map((t) => [foldName(t.name), t]));
  const a = byName(sides.before);
  const b = byName(sides.after);
  const pairs = [...new Set([...a.keys(), ...b.keys()])]
    .map((k) => ({ before: a.get(k) ?? null, after: b.get(k) ?? null }))
    .map((p) => ({ ...p, name: (p.after ?? p.before)!.name }))
    .sort((p, q) => (p.name < q.name ? -1 : p.name > q.name ? 1 : 0));
  const jobs: Job[] = [];
  const { aim } = ctx;
  for (const p of pairs) {
    if (!keep(p.name)) continue;
    if (/^sqlite_/i.test(p.name) && foldName(p.name) !== "sqlite_sequence") {
      const reason = /^sqlite_stat/i.test(p.name)
        ? "internal statistics table written by ANALYZE: not part of the data"
        : "internal SQLite table: not compared";
      jobs.push({ ...p, plan: null, skip: reason, virtual: false, ignored: [] });
      continue;
    }
    if (aim.tableIgnored(p.name)) {
      const reason = "left out by ignore_tables (--ignore-table)";
      jobs.push({ ...p, plan: null, skip: reason, virtual: false, ignored: [] });
      continue;
    }
    const t = (p.after ?? p.before)!;
    const virtual = t.module !== null;
    const skip = virtual ? virtualReason(t, sides) : null;
    let plan: TablePlan | null = null;
    if (settings.include_data && !virtual) {
      for (const s of strategies) {
        plan = s.plan(p, ctx);
        if (plan !== null) break;
      }
    }
    const ignored = new Set<string>();
    if (!virtual && aim.any) {
      if (p.before !== null) {
        aim.aimed(p.before, ctx.pages.before?.path ?? "")?.ignored.forEach((c) => ignored.add(c));
      }
      if (p.after !== null) {
        aim.aimed(p.after, ctx.pages.after?.path ?? "")?.ignored.forEach((c) => ignored.add(c));
      }
    }
    jobs.push({ ...p, plan, skip, virtual, ignored: [...ignored] });
  }
  return jobs;
}

async function diffTables(
  jobs: readonly Job[],
  settings: DiffSettings,
  listener: DiffListener,
): Promise<{ tables: TableDiff[]; skipped: SkippedTable[] }> {
  const tables: TableDiff[] = [];
  const skipped: SkippedTable[] = [];
  const budget: ByteBudget = { left: settings.max_bytes ?? Infinity };
  const onRow = listener.row === undefined ? null : (e: RowEvent) => listener.row!(e);
  for (const job of jobs) {
    if (job.skip !== null) skipped.push({ name: job.name, reason: job.skip });
    if (job.skip !== null && !job.virtual) continue;
    listener.table?.({
      name: job.name,
      before: job.before,
      after: job.after,
      virtual: job.virtual,
    });
    const data = job.plan === null
      ? null
      : await job.plan.run(new KeptRows(settings.max_rows, onRow, budget));
    const diff = tableDiff(job, settings, data);
    listener.tableDone?.(diff);
    tables.push(diff);
  }
  return { tables, skipped };
}

function virtualReason(
  t: TableSchema,
  sides: { readonly before: SideSchema | null; readonly after: SideSchema | null },
): string {
  const prefix = foldName(`${t.name}_`);
  const shadows = [
    ...new Set(
      [...sides.before?.tables.values() ?? [], ...sides.after?.tables.values() ?? []]
        .filter((s) => s.module === null && foldName(s.name).startsWith(prefix))
        .map((s) => s.name),
    ),
  ].sort();
  const what = `virtual table (USING ${t.module})`;
  return shadows.length > 0
    ? `${what}: its rows are compared through its shadow tables ${shadows.join(", ")}`
    : `${what}: its rows belong to the module, so they are not compared`;
}

/** A table's diff from its schemas and its row changes (null: rows not compared). */
function tableDiff(job: Job, settings: DiffSettings, data: TableData | null): TableDiff {
  const { before, after } = job;
  const either = (after ?? before)!;
  const columns: ColumnsDiff = before !== null && after !== null && settings.include_schema
    ? diffColumns(before, after)
    : { added: [], removed: [], changed: [] };
  const schemaStatus: ChangeStatus = before === null
    ? "added"
    : after === null
    ? "removed"
    : settings.include_schema && tableSchemaChanged(before, after, columns)
    ? "changed"
    : "unchanged";
  const counts = data === null
    ? { added: 0, removed: 0, changed: 0, changed_cells: 0 }
    : { ...data.rows.counts };
  const dataStatus = counts.added + counts.removed + counts.changed > 0 ? "changed" : "unchanged";
  return {
    name: either.name,
    status: schemaStatus !== "unchanged" ? schemaStatus : dataStatus,
    schema_status: schemaStatus,
    data_status: dataStatus,
    key: data?.key ?? either.key,
    key_kind: data?.keyKind ?? either.keyKind,
    compared_columns: data?.comparedColumns ?? [],
    ...(job.ignored.length > 0 ? { ignored_columns: job.ignored } : {}),
    columns,
    rows: data === null
      ? { added: [], removed: [], changed: [] }
      : { added: data.rows.added, removed: data.rows.removed, changed: data.rows.changed },
    counts,
    truncated: data?.rows.truncated ?? false,
    ...(data?.rows.bytesCut === true ? { bytes_cut: true as const } : {}),
    sql_before: before?.sql ?? null,
    sql_after: after?.sql ?? null,
  };
}

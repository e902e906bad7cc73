/**
 * Diffing two SQLite files: `diffSqliteDatabases`.
 *
 * @module
 */
import { SqliteQueryError } from "../errors.ts";
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { type Database, openDatabase, openReadOnly } from "../sqlite/database.ts";
import { withPageOne } from "../sqlite/file_vfs.ts";
import { checkSqliteFile } from "../sqlite/file_check.ts";
import { blameDamagedFile } from "../sqlite/damaged.ts";
import { type DiffOptions, diffSettings } from "./options.ts";
import { type PagePlan, pagePlan } from "./page_plan.ts";
import { type PageScan, scanPages } from "./_page_scan.ts";
import { scanTrees } from "./_table_scan.ts";
import { namedTables, type PageOnes, withoutEngine } from "./_named_tables.ts";
import { CELL_PAGES } from "./_cell_rows.ts";
import { readSchema, type SideSchema, type TableSchema } from "./schema.ts";
import { identicalSchemas } from "./_identical_files.ts";
import { RowidRanges } from "./_rowid_ranges.ts";
import { type ColumnsDiff, diffColumns, diffObjects, tableSchemaChanged } from "./schema_diff.ts";
import { diffTableData, type TableData } from "./table_data.ts";
import { type ByteBudget, KeptRows } from "./_kept_rows.ts";
import type { DiffListener, RowEvent } from "./listener.ts";
import { foldName } from "./names.ts";
import type {
  ChangeStatus,
  DatabaseChange,
  DatabaseDiff,
  DiffSettings,
  SkippedTable,
  TableDiff,
} from "./types.ts";
import { DIFF_FORMAT_VERSION } from "./types.ts";

const AFTER = "aft";

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
  const change = await diffDatabasePair({ name, before, after, settings, listener });
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
 * Diffs one database across the two sides.
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
  // The page scan reads both files on I/O threads while the WASM engine
  // starts and the schemas are read; it is awaited only once they are.
  let scanning: Promise<PageScan | null> | null = null;
  let scan: PageScan | null = null;
  let opening: Promise<Database> | null = null;
  // With --table, what the engine is shown as each file's page 1: a schema
  // of the named tables only (_schema_page_one.ts).
  let pageOnes: PageOnes = { before: null, after: null };
  const open = (): Promise<Database> => opening ??= openSides(before, after, pageOnes);
  // Started early, its failure is reported where it is awaited.
  let differs: () => void = () => {};
  const differing = new Promise<void>((resolve) => differs = resolve);
  const startEngine = (): void => {
    void open().catch(() => {});
    differs();
  };
  // With --table, only the named tables' pages are compared: their root
  // pages are read from the files' schema pages, or else from SQLite's.
  const paired = before !== null && after !== null && settings.include_data;
  const pairByRowid = settings.pair_by === "rowid";
  // With --table, the named tables' schema rows read without SQLite, when
  // they are the same on both sides: then the engine starts only once one
  // of their pages differs.
  let named: { before: SideSchema; after: SideSchema } | null = null;
  if (paired && settings.tables === null) {
    // Files of one length may be page for page the same, and then need no
    // engine (_identical_files.ts): it starts once a page differs.
    if (!sameLength(before, after)) startEngine();
    scanning = scanPages(before, after, startEngine);
  } else if (paired) {
    const found = namedTables(before, after, settings.tables!, pairByRowid);
    if (found !== null) {
      ({ named, pageOnes } = found);
      if (named === null) startEngine();
      // Tables whose changed rows can be read from their cells wait for the
      // scan's end unless many pages differ; for others the engine starts at
      // the first differing page.
      const differAt = found.cells ? CELL_PAGES : 1;
      scanning = scanTrees(before, after, found.roots, startEngine, differAt);
    }
  }
  let db: Database | null = null;
  try {
    if (paired && settings.tables === null && scanning !== null && opening === null) {
      // The scan's end, or its first differing page: then the engine has
      // started, and the schemas are read while the scan goes on.
      await Promise.race([scanning, differing]);
      if ((opening as Promise<Database> | null) === null) scan = await scanning;
      if (
        (opening as Promise<Database> | null) === null && scan !== null && scan.scope === null &&
        scan.dirtyCount === 0
      ) {
        const same = identicalSchemas(before, after, pairByRowid);
        if (same !== null) {
          const plan: PagePlan = { table: () => ({ identical: true, ranges: new RowidRanges() }) };
          return finish({ db: null, sides: same, afterSchema: AFTER, settings, plan, listener });
        }
      }
    }
    if (named !== null && scanning !== null && opening === null) {
      // The scan's end, or its first differing page.
      await Promise.race([scanning, differing]);
      if ((opening as Promise<Database> | null) === null) scan = await scanning;
      const plan = scan === null || (opening as Promise<Database> | null) !== null
        ? null
        : pagePlan(scan, named);
      const decoded = plan === null || scan === null ? null : withoutEngine(scan, plan, named);
      if (decoded !== null) {
        return finish({
          db: null,
          sides: named,
          afterSchema: AFTER,
          settings,
          plan: plan!,
          listener,
          decoded,
        });
      }
    }
    db = await open();
    const afterSchema = before !== null && after !== null ? AFTER : "main";
    const read = { pairByRowid, tables: settings.tables };
    const sides = {
      before: before === null ? null : readSchema(db, "main", read),
      after: after === null ? null : readSchema(db, afterSchema, read),
    };
    scan ??= scanning !== null ? await scanning : paired
      ? await scanTrees(before, after, {
        before: rootsOf(sides.before!),
        after: rootsOf(sides.after!),
      })
      : null;
    const plan = scan === null
      ? null
      : pagePlan(scan, { before: sides.before!, after: sides.after! });
    return finish({ db, sides, afterSchema, settings, plan, listener });
  } catch (e) {
    // SQLite's "malformed" names neither file: find the damaged one.
    throw await blameDamagedFile(e, [before, after].filter((p) => p !== null));
  } finally {
    // An engine started early is closed even when opening it was not awaited.
    const started = opening as Promise<Database> | null;
    (db ?? (await started?.catch(() => null)))?.close();
    // A scan still running when opening failed is finished, then closed.
    (scan ?? (await scanning))?.close();
  }

  function finish(
    input: Omit<TablesInput, "listener"> & { listener: DiffListener },
  ): DatabaseChange {
    const { sides } = input;
    input.listener.start?.(sides);
    const { tables, skipped } = diffTables(input);
    const keep = tableFilter(settings);
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
    input.listener.done?.(change);
    return change;
  }
}

/** Whether two files have the same length (false when either cannot be looked at). */
function sameLength(a: string, b: string): boolean {
  try {
    return fs.statSync(a).size === fs.statSync(b).size;
  } catch {
    return false;
  }
}

/**
 * Opens the before file (or the only one) and attaches the after file, with
 * a small page cache: the WASM build's default is 16 MiB per schema, and the
 * comparison reads each page about once, so SQLite's native default of
 * 2 MiB is as fast and keeps peak memory flat (the OS caches the files).
 */
async function openSides(
  before: string | null,
  after: string | null,
  pageOnes: PageOnes,
): Promise<Database> {
  const db = await openReadOnly((before ?? after)!, {}, before === null ? null : pageOnes.before);
  try {
    const both = before !== null && after !== null;
    if (both) await attachAfter(db, after, pageOnes.after);
    db.exec(`PRAGMA main.cache_size=-2000${both ? `; PRAGMA ${AFTER}.cache_size=-2000` : ""}`);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * Attaches the after file to `db` and reads its schema once. When that
 * fails, the file is opened alone, so that the error names it (a damaged
 * page, a hot journal); opening it alone first every time would parse a
 * schema of thousands of tables twice.
 */
async function attachAfter(
  db: Database,
  after: string,
  pageOne: Uint8Array | null,
): Promise<void> {
  checkSqliteFile(after);
  try {
    const attach = db.prepare(`ATTACH ? AS ${AFTER}`);
    try {
      attach.bind([after]);
      withPageOne(after, pageOne, () => attach.step());
    } finally {
      attach.finalize();
    }
    db.query(`SELECT count(*) FROM ${AFTER}.sqlite_schema`);
  } catch (e) {
    (await openDatabase(after)).close();
    throw e;
  }
}

/** The root pages of a side's tables (the named ones, with --table). */
function rootsOf(side: SideSchema): number[] {
  return [...side.tables.values()].map((t) => t.rootPage);
}

function tableFilter(settings: DiffSettings): (name: string) => boolean {
  if (settings.tables === null) return () => true;
  const wanted = new Set(settings.tables.map(foldName));
  return (name) => wanted.has(foldName(name));
}

interface TablesInput {
  /** Null when every table is known identical (no row is compared). */
  readonly db: Database | null;
  readonly sides: { readonly before: SideSchema | null; readonly after: SideSchema | null };
  readonly afterSchema: string;
  readonly settings: DiffSettings;
  readonly plan: PagePlan | null;
  readonly listener: DiffListener;
  /** Tables whose row changes were read from their cells, without the engine. */
  readonly decoded?: ReadonlyMap<string, (rows: KeptRows) => TableData>;
}

/** What the tables of one database may still keep. */
interface Budget {
  readonly budget: ByteBudget;
}

function diffTables(input: TablesInput): { tables: TableDiff[]; skipped: SkippedTable[] } {
  const { sides, settings } = input;
  const keep = tableFilter(settings);
  // SQLite compares table names case-insensitively (ASCII only): "Users"
  // renamed to "users" is the same table, under its after name.
  const fold = foldName;
  const byName = (side: SideSchema | null): Map<string, TableSchema> =>
    new Map([...side?.tables.values() ?? []].map((t) => [fold(t.name), t]));
  const a = byName(sides.before);
  const b = byName(sides.after);
  const pairs = [...new Set([...a.keys(), ...b.keys()])]
    .map((k) => ({ before: a.get(k) ?? null, after: b.get(k) ?? null }))
    .map((p) => ({ ...p, name: (p.after ?? p.before)!.name }))
    .sort((p, q) => (p.name < q.name ? -1 : p.name > q.name ? 1 : 0));
  const tables: TableDiff[] = [];
  const skipped: SkippedTable[] = [];
  const budget: ByteBudget = { left: settings.max_bytes ?? Infinity };
  for (const { name, before, after } of pairs) {
    if (!keep(name)) continue;
    if (/^sqlite_/i.test(name) && foldName(name) !== "sqlite_sequence") {
      skipped.push({
        name,
        reason: /^sqlite_stat/i.test(name)
          ? "internal statistics table written by ANALYZE: not part of the data"
          : "internal SQLite table: not compared",
      });
      continue;
    }
    const virtual = (before ?? after)!.module !== null;
    if (virtual) skipped.push({ name, reason: virtualReason((before ?? after)!, sides) });
    input.listener.table?.({ name, before, after, virtual });
    const diff = diffTable({ ...input, before, after, virtual, budget });
    input.listener.tableDone?.(diff);
    tables.push(diff);
  }
  return { tables, skipped };
}

function virtualReason(t: TableSchema, sides: TablesInput["sides"]): string {
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

function diffTable(
  input: TablesInput & Budget & {
    before: TableSchema | null;
    after: TableSchema | null;
    virtual: boolean;
  },
): TableDiff {
  const { before, after, settings, db } = input;
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
  let key = either.key;
  let keyKind = either.keyKind;
  let compared: readonly string[] = [];
  let rows = { added: [], removed: [], changed: [] } as TableDiff["rows"];
  let counts = { added: 0, removed: 0, changed: 0 };
  let truncated = false;
  let bytesCut = false;
  if (settings.include_data && !input.virtual) {
    const decoded = input.decoded?.get(either.name);
    const page = decoded !== undefined ? null : input.plan?.table(either.name) ?? null;
    if (page?.identical !== true) {
      const onRow = input.listener.row === undefined
        ? null
        : (e: RowEvent) => input.listener.row!(e);
      const engine = (): Database => {
        if (db === null) {
          throw new Error(`internal: table "${either.name}" compared without SQLite`);
        }
        return db;
      };
      const data = decoded !== undefined
        ? decoded(new KeptRows(settings.max_rows, onRow, input.budget))
        : namingTable(either, () =>
          diffTableData({
            db: engine(),
            before: before === null ? null : { schema: "main", table: before },
            after: after === null ? null : { schema: input.afterSchema, table: after },
            maxRows: settings.max_rows,
            budget: input.budget,
            ranges: page?.ranges ?? null,
            residue: page?.residue ?? null,
            residueKeys: page?.residueKeys ?? null,
            onRow,
          }));
      ({ key, keyKind } = data);
      compared = data.comparedColumns;
      rows = { added: data.rows.added, removed: data.rows.removed, changed: data.rows.changed };
      counts = { ...data.rows.counts };
      truncated = data.rows.truncated;
      bytesCut = data.rows.bytesCut;
    } else compared = either.columns.filter((c) => c.hidden !== 1).map((c) => c.name);
  }
  const dataStatus = counts.added + counts.removed + counts.changed > 0 ? "changed" : "unchanged";
  return {
    name: either.name,
    status: schemaStatus !== "unchanged" ? schemaStatus : dataStatus,
    schema_status: schemaStatus,
    data_status: dataStatus,
    key,
    key_kind: keyKind,
    compared_columns: compared,
    columns,
    rows,
    counts,
    truncated,
    ...(bytesCut ? { bytes_cut: true as const } : {}),
    sql_before: before?.sql ?? null,
    sql_after: after?.sql ?? null,
  };
}

/**
 * Runs `f`; a query error it throws names the table it was comparing. A
 * collation SQLite lacks (an application's own, like Android's LOCALIZED)
 * fails only where a key is compared, since values compare as BINARY: the
 * message says so, and what else can pair the rows.
 */
function namingTable<T>(table: TableSchema, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof SqliteQueryError)) throw e;
    const collation = /no such collation sequence: (.+)$/.exec(e.message)?.[1];
    const message = collation !== undefined && table.keyKind === "primary_key"
      ? `its key (${table.key.join(", ")}) needs collation "${collation}", which this SQLite ` +
        "does not have (the application that wrote the file defines it), so the diff cannot " +
        "tell which keys are equal; " +
        (table.withoutRowid
          ? "a WITHOUT ROWID table has no rowid to pair by instead: leave it out by naming the other tables with --table"
          : "pair its rows by rowid instead (--rowid)")
      : e.message;
    throw new SqliteQueryError(e.sql, e.code, `table "${table.name}": ${message}`);
  }
}

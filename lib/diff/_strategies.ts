/**
 * How a table's rows are diffed: an ordered list of strategies, the first
 * that takes a table diffing it, over one engine starter (_engine.ts) that
 * a strategy starts only when it must ask SQLite.
 *
 * - {@link IDENTICAL_FILES}: two files page for page the same
 *   (_identical_files.ts: read once each in big chunks, the first file's
 *   leaves checked as they go by): no table has a row to compare.
 * - {@link CELL_ROWS}: rows from cells (_cell_rows.ts): the two trees
 *   compared and the changed rows decoded in one pass over each file, no
 *   engine. Tables keyed by their rowid whose records read as SQLite reads
 *   them.
 * - {@link KEYED_CELL_ROWS}: rows from cells for a table keyed by columns
 *   (WITHOUT ROWID, or a rowid table whose primary key is not the rowid;
 *   _keyed_cells.ts): the trees compared by record, the rows left over
 *   paired by key, no engine. UTF-8 files, ascending keys of a collation
 *   the comparison knows (BINARY, NOCASE, RTRIM), and a residue small
 *   enough to hold; else the engine's, which need not check the trees'
 *   pages again.
 * - {@link ENGINE_ROWS}: SQLite compares the rows (table_data.ts), only
 *   those the comparison of the pages leaves (_residue.ts): keyless tables,
 *   other keys (their collations, NULLs), columns that changed, VIRTUAL
 *   generated columns. A table whose pages show no difference needs no
 *   engine either.
 *
 * - {@link AIMED_ROWS}, first: a table with a chosen key or ignored columns
 *   (the `keys` and `ignore` options, _aim.ts), compared by the engine as
 *   the options shape it (no strategy after it knows of them).
 *
 * A new way to diff a table is one more member of the list, ahead of the
 * engine.
 *
 * @module
 */
import { SqliteQueryError } from "../errors.ts";
import { type Aim, checkChosenKey } from "./_aim.ts";
import type { KeptRows } from "./_kept_rows.ts";
import { cellRows, cellRowsFit } from "./_cell_rows.ts";
import { keyedCellsLayout, type KeyedResidue, keyedResidue, pairKeyed } from "./_keyed_cells.ts";
import type { EngineStarter } from "./_engine.ts";
import { checkIndexOrder } from "./_index_order.ts";
import { foldSurrogates } from "./_utf8_copy.ts";
import type { PageSide } from "./_page_sides.ts";
import { keyResidue, recordResidue, rowidResidue, type TablePages } from "./_residue.ts";
import type { TreeSide } from "./_tree_compare.ts";
import { normalizeSql, type TableSchema } from "./schema.ts";
import { diffTableData, type TableData } from "./table_data.ts";
import type { DiffSettings } from "./types.ts";

/** One table of the diff: its schema on each side (null where it is absent). */
export interface TableJob {
  readonly name: string;
  readonly before: TableSchema | null;
  readonly after: TableSchema | null;
}

/** What every strategy may use. */
export interface StrategyContext {
  readonly settings: DiffSettings;
  /** Each side's pages (null where the file is absent). */
  readonly pages: { readonly before: PageSide | null; readonly after: PageSide | null };
  readonly engine: EngineStarter;
  /** The two files are page for page the same (_identical_files.ts). */
  readonly identical: boolean;
  /** The settings' chosen keys and ignored columns (_aim.ts). */
  readonly aim: Aim;
}

/** A strategy's plan for one table. */
export interface TablePlan {
  /**
   * Work done before any table's rows are told, in table order: an engine
   * table compares its pages here and starts the engine if rows differ, so
   * that the engine's start overlaps the reading of the tables after it.
   */
  prepare?(): Promise<void>;
  /** Diffs the rows, telling each change to `rows`. */
  run(rows: KeptRows): Promise<TableData>;
}

/** One way to diff a table's rows. */
export interface TableStrategy {
  readonly name: string;
  /** A plan for the table, or null when this strategy cannot diff it. */
  plan(job: TableJob, ctx: StrategyContext): TablePlan | null;
}

/**
 * A table's tree on one side; `checked` when a walk of this diff read and
 * checked its pages already (then this walk claims none of them again).
 */
function side(
  pages: PageSide,
  table: TableSchema,
  checked = false,
): TreeSide & { table: TableSchema } {
  return { src: pages.src, owners: checked ? null : pages.owners, root: table.rootPage, table };
}

/** The rows of a table with nothing to compare, as its schema gives its key and columns. */
function noRows(table: TableSchema, rows: KeptRows): TableData {
  return {
    key: table.key,
    keyKind: table.keyKind,
    comparedColumns: table.columns.filter((c) => c.hidden !== 1).map((c) => c.name),
    rows,
  };
}

/** Identical files (see the module documentation). */
export const IDENTICAL_FILES: TableStrategy = {
  name: "identical files",
  plan(job, { identical }) {
    if (!identical || job.before === null || job.after === null) return null;
    const table = job.after;
    return { run: (rows) => Promise.resolve(noRows(table, rows)) };
  },
};

/** Rows from cells (see the module documentation). */
export const CELL_ROWS: TableStrategy = {
  name: "cells",
  plan(job, { pages }) {
    const { before, after } = job;
    for (const t of [before, after]) {
      if (t !== null && (!cellRowsFit(t) || t.rootPage <= 0)) return null;
    }
    if (before !== null && after !== null) {
      if (before.sql !== after.sql) return null;
      // Text compared byte for byte must be of one encoding on both sides.
      const enc = (p: PageSide | null) => p?.src.header.encoding ?? "utf-8";
      if (enc(pages.before) !== enc(pages.after)) return null;
    }
    const a = before === null ? null : side(pages.before!, before);
    const b = after === null ? null : side(pages.after!, after);
    return {
      async run(rows) {
        const data = await cellRows(a, b, rows);
        if (data === null) throw new Error(`internal: table "${job.name}" does not fit its cells`);
        return data;
      },
    };
  },
};

/** Rows from cells for a table keyed by columns (see the module documentation). */
export const KEYED_CELL_ROWS: TableStrategy = {
  name: "keyed cells",
  plan(job, ctx) {
    const { before, after } = job;
    const { before: pa, after: pb } = ctx.pages;
    if (before === null || after === null || pa === null || pb === null) return null;
    if (before.sql !== after.sql || before.rootPage <= 0 || after.rootPage <= 0) return null;
    // Keys ordered by their bytes as the engine orders them: UTF-8 (the
    // engine reads a UTF-8 copy of a UTF-16 file, whose bytes order otherwise).
    if ((pa.src.header.encoding ?? "utf-8") !== "utf-8") return null;
    if ((pb.src.header.encoding ?? "utf-8") !== "utf-8") return null;
    const layout = keyedCellsLayout(before);
    if (layout === null) return null;
    let residue: KeyedResidue | null = null;
    // The engine's plan, when the residue is not the cells' to pair.
    let engine: TablePlan | null = null;
    return {
      async prepare() {
        residue = await keyedResidue(side(pa, before), side(pb, after), layout);
        if (residue === null) {
          engine = enginePlan(job, ctx, true, true);
          await engine.prepare!();
        }
      },
      run(rows) {
        if (engine !== null) return engine.run(rows);
        return Promise.resolve(pairKeyed(residue!, layout, before, rows));
      },
    };
  },
};

/**
 * The rows SQLite must compare, from the pages: null for every row.
 * `checked`: the table's trees were read and checked by an earlier walk.
 */
function residueOf(
  job: TableJob,
  pages: StrategyContext["pages"],
  checked: boolean,
): Promise<TablePages | null> {
  const { before: ta, after: tb } = job;
  const { before: pa, after: pb } = pages;
  const whole = Promise.resolve(null);
  if (ta === null || tb === null || pa === null || pb === null) return whole;
  if (ta.rootPage <= 0 || tb.rootPage <= 0) return whole;
  if (normalizeSql(ta.sql) !== normalizeSql(tb.sql)) return whole;
  const a = side(pa, ta, checked);
  const b = side(pb, tb, checked);
  if (ta.withoutRowid || tb.withoutRowid) {
    return ta.withoutRowid && tb.withoutRowid && ta.key.length > 0
      ? keyResidue(a, b, ta.key.length)
      : whole;
  }
  return ta.keyKind === "rowid" && tb.keyKind === "rowid"
    ? rowidResidue(a, b)
    : recordResidue(a, b);
}

/**
 * The engine's plan for a table: with `residue`, only the rows the pages
 * leave are compared (a table whose pages show no difference needs no
 * engine); without, every row. `checked`: a walk of this diff read and
 * checked the table's trees already (as the check of two identical files
 * does: their overflow chains are not claimed a second time).
 */
function enginePlan(
  job: TableJob,
  ctx: StrategyContext,
  residue: boolean,
  checked = false,
): TablePlan {
  let pages: TablePages | null = null;
  const either = (job.after ?? job.before)!;
  return {
    async prepare() {
      pages = residue ? await residueOf(job, ctx.pages, checked || ctx.identical) : null;
      if (pages === null || !pages.identical) ctx.engine.start();
    },
    async run(rows) {
      if (pages?.identical === true) return noRows(either, rows);
      const db = await ctx.engine.dbWith(either.name);
      // The indexes SQLite looks rows up through, in key order.
      const { before: pa, after: pb } = ctx.pages;
      await checkIndexOrder(
        db,
        job.before === null || pa === null
          ? null
          : { schema: ctx.engine.beforeSchema, table: job.before, pages: pa },
        job.after === null || pb === null
          ? null
          : { schema: ctx.engine.afterSchema, table: job.after, pages: pb },
        pages?.ordered,
      );
      return namingTable(either, () =>
        diffTableData({
          db,
          before: job.before === null
            ? null
            : { schema: ctx.engine.beforeSchema, table: job.before },
          after: job.after === null ? null : { schema: ctx.engine.afterSchema, table: job.after },
          maxRows: ctx.settings.max_rows,
          rows: ctx.engine.copies ? rows.foldingText(foldSurrogates) : rows,
          ranges: pages?.ranges ?? null,
          residue: pages?.residue ?? null,
          residueKeys: pages?.residueKeys ?? null,
          chosenKey: !residue,
        }));
    },
  };
}

/** SQLite compares the rows the pages leave (see the module documentation). */
export const ENGINE_ROWS: TableStrategy = {
  name: "engine",
  plan: (job, ctx) => enginePlan(job, ctx, true),
};

/**
 * Aimed rows (see the module documentation): the engine compares the table
 * as _aim.ts shapes it. Columns left out change no pairing, so the pages
 * still narrow the rows to compare; a chosen key pairs rows the pages do
 * not, so every row is compared, after each side's key is checked unique.
 */
export const AIMED_ROWS: TableStrategy = {
  name: "aimed",
  plan(job, ctx) {
    const aimed = (t: TableSchema | null, side: PageSide | null) =>
      t === null ? null : ctx.aim.aimed(t, side?.path ?? "")?.table ?? null;
    const before = aimed(job.before, ctx.pages.before);
    const after = aimed(job.after, ctx.pages.after);
    if (before === null && after === null) return null;
    const sides = { name: job.name, before: before ?? job.before, after: after ?? job.after };
    if (ctx.identical && sides.before !== null && sides.after !== null) {
      const table = sides.after;
      return { run: (rows) => Promise.resolve(noRows(table, rows)) };
    }
    const chosen = ctx.aim.keyOf(job.name) !== null;
    const plan = enginePlan(sides, ctx, !chosen);
    return {
      prepare: () => plan.prepare!(),
      async run(rows) {
        if (chosen) {
          const db = await ctx.engine.dbWith(job.name);
          if (sides.before !== null) {
            const schema = ctx.engine.beforeSchema;
            checkChosenKey(db, schema, sides.before, ctx.pages.before?.path ?? "");
          }
          if (sides.after !== null) {
            checkChosenKey(db, ctx.engine.afterSchema, sides.after, ctx.pages.after?.path ?? "");
          }
        }
        return await plan.run(rows);
      },
    };
  },
};

/** The strategies, in the order they are tried. */
export const TABLE_STRATEGIES: readonly TableStrategy[] = [
  AIMED_ROWS,
  IDENTICAL_FILES,
  CELL_ROWS,
  KEYED_CELL_ROWS,
  ENGINE_ROWS,
];

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

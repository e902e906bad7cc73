/**
 * Each side of a database diff as the file reader sees it: the file's pages
 * (lib/sqlite_format/page_source.ts, the `-wal`'s commits included), who
 * holds each page, its sqlite_schema rows, and its schema read from them
 * as SQLite reads it (_page_schema.ts), when that can be done without
 * SQLite.
 *
 * Before any table's rows are compared, every b-tree the diff reads is
 * walked once at the level of its interior pages and its pages claimed
 * (lib/sqlite_format/tree_walk.ts): a whole diff walks every b-tree of the
 * file, the freelist and the pointer map, so a page that two trees share,
 * or a tree that lists a page twice, is damage found before a row is
 * told. A diff limited to some tables (`--table`) walks theirs only, so a
 * damaged page of another table does not stop it.
 *
 * @module
 */
import { checkSqliteFile } from "../sqlite/file_check.ts";
import { treeKind } from "../sqlite_format/check.ts";
import { claimFreelist, claimPointerMap } from "../sqlite_format/freelist.ts";
import { PageOwners } from "../sqlite_format/page_owners.ts";
import { PageSource } from "../sqlite_format/page_source.ts";
import { readSchemaRows, type SchemaRow } from "../sqlite_format/schema_rows.ts";
import { checkSchemaRows } from "./_schema_rows_check.ts";
import { claimTree, type LeafMap } from "../sqlite_format/tree_walk.ts";
import { sideSchema } from "./_page_schema.ts";
import { STATISTICS_TABLES } from "./_schema_page_one.ts";
import { foldName } from "./names.ts";
import type { SideSchema } from "./schema.ts";

/** One side of a diff, as its pages give it. */
export interface PageSide {
  readonly path: string;
  readonly src: PageSource;
  readonly owners: PageOwners;
  /** The sqlite_schema rows read: all, or the named tables' and the statistics tables'. */
  readonly rows: readonly SchemaRow[];
  /** The named tables' rows (all rows without a filter). */
  readonly named: readonly SchemaRow[];
  /** Its schema read from those rows, or null when SQLite must read it. */
  readonly schema: SideSchema | null;
}

/**
 * Opens one side: checks the file as SQLite's open would (a missing file,
 * not SQLite, a hot journal: lib/sqlite/file_check.ts), opens its pages and
 * reads its schema rows.
 *
 * @param path the file
 * @param tables the tables the diff is limited to, or null
 * @param pairByRowid rows of tables without an INTEGER key pair by rowid
 * @returns the side (close its source when done)
 */
export function openPageSide(
  path: string,
  tables: readonly string[] | null,
  pairByRowid: boolean,
): PageSide {
  checkSqliteFile(path, { utf16: true });
  const src = PageSource.open(path);
  try {
    const names = new Map<number, string>([[1, "sqlite_schema"]]);
    const owners = new PageOwners(src, (root) => names.get(root) ?? `root page ${root}`);
    const wanted = tables === null ? null : new Set(tables.map(foldName));
    const read = wanted === null ? null : new Set([...wanted, ...STATISTICS_TABLES]);
    // Every row is read, and what SQLite refuses to load is refused here
    // too, SQLite started or not (it refuses the file, not one table).
    const others: SchemaRow[] = [];
    const rows = readSchemaRows(src, owners, read, others);
    checkSchemaRows(src, [...rows, ...others]);
    for (const r of rows) {
      if (r.rootpage > 0 && !names.has(r.rootpage)) names.set(r.rootpage, `${r.type} ${r.name}`);
    }
    const named = wanted === null ? rows : rows.filter((r) => wanted.has(foldName(r.tbl_name)));
    const schema = sideSchema(named, pairByRowid);
    const encoding = src.header.encoding ?? "utf-8";
    return { path, src, owners, rows, named, schema: schema && { ...schema, encoding } };
  } catch (e) {
    src.close();
    throw e;
  }
}

/**
 * Walks and claims every b-tree a diff of this side reads (all of the
 * file's with `whole`, the freelist and pointer map too; else those of the
 * named tables and their indexes).
 *
 * @param side the side
 * @param whole whether the diff reads the whole file
 * @param leaves where to note the tables' leaves and their key ranges, if anywhere
 */
export function claimTrees(side: PageSide, whole: boolean, leaves: LeafMap | null = null): void {
  const { src, owners } = side;
  const rows = whole ? side.rows : side.named;
  const seen = new Set<number>();
  for (const r of rows) {
    if (r.rootpage <= 0 || (r.type !== "table" && r.type !== "index")) continue;
    // A root two rows share is claimed twice: damage, named.
    if (seen.has(r.rootpage)) {
      throw src.damaged(
        r.rootpage,
        `it is the root of two schema objects (${r.type} ${r.name} and another)`,
      );
    }
    seen.add(r.rootpage);
    // The leaves of tables are noted, with their key ranges, for a reader in file order.
    claimTree(src, r.rootpage, treeKind(r), owners, r.type === "table" ? leaves : null);
  }
  if (whole) {
    claimFreelist(src, owners);
    claimPointerMap(src, owners);
  }
}

/**
 * A file's sqlite_schema rows, read from its pages (the table b-tree rooted
 * at page 1), checked as any table's pages are, each row a record of five
 * columns: type, name and tbl_name (text), rootpage (an integer or NULL)
 * and sql (text or NULL).
 *
 * Rows can be read for some tables only (`db diff --table` among thousands):
 * then the others are told apart by the bytes of their tbl_name, without
 * decoding them, and the rows kept carry their cells as they sit on the
 * page (lib/diff/_schema_page_one.ts builds a page of them).
 *
 * @module
 */
import { BtreePage } from "./btree_page.ts";
import { Payloads } from "./overflow.ts";
import type { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { Record } from "./record.ts";
import { END, TreeWalk } from "./tree_walk.ts";

/** One row of sqlite_schema. */
export interface SchemaRow {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly rootpage: number;
  readonly sql: string | null;
  /** Its rowid in sqlite_schema. */
  readonly rowid: number;
  /** The page its cell is on. */
  readonly page: number;
  /**
   * The cell as it sits on its leaf (sizes, rowid, the payload kept on the
   * page and the number of its first overflow page), copied: only when the
   * rows were read for some tables.
   */
  readonly cell?: Uint8Array;
}

const encoder = new TextEncoder();

/** ASCII letters folded to lower case, as SQLite's `lower()` folds them. */
function fold(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * Reads sqlite_schema's rows in rowid order: all of them, or only those
 * whose tbl_name is one of `tables` (folded as SQLite folds ASCII letters).
 *
 * @param src the file
 * @param owners its page owners (the schema's pages and overflow pages are claimed), or null
 * @param tables the folded table names to keep, or null for every row
 * @param others where to put the rows `tables` leaves out (decoded too), or
 *   null to pass over them unread (told apart by their tbl_name's bytes)
 * @returns the rows
 * @throws {SqliteDamageError} when a page or a row is not what it should be
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { readSchemaRows } from "./schema_rows.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * readSchemaRows(src, null).map((r) => r.name); // ["users", "todos"]
 * src.close();
 * ```
 */
export function readSchemaRows(
  src: PageSource,
  owners: PageOwners | null,
  tables: ReadonlySet<string> | null = null,
  others: SchemaRow[] | null = null,
): SchemaRow[] {
  if (src.pages === 0) return [];
  const rows: SchemaRow[] = [];
  const walk = new TreeWalk(src, 1, "table", owners, owners === null ? "none" : "claim");
  const page = new BtreePage(src);
  const buf = new Uint8Array(src.pageSize);
  const payloads = new Payloads(src, owners);
  const record = new Record(src.header.encoding);
  const utf8 = (src.header.encoding ?? "utf-8") === "utf-8";
  const wanted = tables === null ? null : [...tables].map((t) => encoder.encode(t));
  for (let n = walk.next(); n !== END; n = walk.next()) {
    src.read(n, buf);
    page.parse(n, buf, 0, "table", walk.bounds, true);
    for (let i = 0; i < page.count; i++) {
      const rowid = page.rowid(i);
      if (
        others === null && wanted !== null && utf8 && page.overflow[i] === 0 &&
        !named(page, i, wanted, record)
      ) {
        continue;
      }
      const bytes = payloads.payload(page, i);
      const problem = record.parse(bytes, 0, bytes.length, bytes.length);
      if (problem !== null) throw src.damaged(n, `sqlite_schema's cell ${i + 1}: ${problem}`);
      const row = schemaRow(record, rowid, src, n, i);
      if (tables !== null && !tables.has(fold(row.tbl_name))) {
        others?.push(row);
        continue;
      }
      if (tables === null) rows.push(row);
      else {
        const cellStart = cellOffset(page, i);
        const end = page.start[i]! + page.local[i]! + (page.overflow[i] !== 0 ? 4 : 0);
        rows.push({ ...row, cell: buf.slice(cellStart, end) });
      }
    }
  }
  return rows;
}

/** Where cell `i` of a table leaf starts (its pointer). */
function cellOffset(page: BtreePage, i: number): number {
  const h = page.base + (page.number === 1 ? 100 : 0) + 8 + 2 * i;
  return page.base + ((page.buf[h]! << 8) | page.buf[h + 1]!);
}

/**
 * Whether cell `i`'s tbl_name (its third column, read from the bytes on the
 * page) is one of `wanted` with ASCII letters folded.
 */
function named(page: BtreePage, i: number, wanted: readonly Uint8Array[], record: Record): boolean {
  const start = page.start[i]!;
  const size = page.payload[i]!;
  const problem = record.parse(page.buf, start, page.local[i]!, size);
  if (problem !== null || record.count < 3 || record.types[2]! < 13 || record.types[2]! % 2 === 0) {
    return true; // read whole, and reported there
  }
  const len = record.width(2);
  const from = record.offsets[2]!;
  const b = page.buf;
  return wanted.some((w) => {
    if (w.length !== len) return false;
    for (let k = 0; k < len; k++) {
      const x = b[from + k]!;
      if ((x >= 65 && x <= 90 ? x + 32 : x) !== w[k]) return false;
    }
    return true;
  });
}

function schemaRow(
  record: Record,
  rowid: number,
  src: PageSource,
  n: number,
  i: number,
): SchemaRow {
  const bad = (what: string): Error => src.damaged(n, `sqlite_schema's cell ${i + 1} ${what}`);
  if (record.count < 5) throw bad(`has ${record.count} columns, not the 5 of a schema row`);
  const text = (c: number): boolean => record.types[c]! >= 13 && record.types[c]! % 2 === 1;
  for (const c of [0, 1, 2]) if (!text(c)) throw bad(`has no text in column ${c + 1}`);
  const root = record.types[3]!;
  if (!(root === 0 || (root >= 1 && root <= 6) || root === 8 || root === 9)) {
    throw bad("has a root page that is not an integer");
  }
  if (!(record.types[4] === 0 || text(4))) throw bad("has SQL that is not text");
  const rootpage = Number(record.value(3) ?? 0);
  if (rootpage < 0 || rootpage > src.pages) {
    throw bad(`names root page ${rootpage}, which is not in the file`);
  }
  return {
    type: record.value(0) as string,
    name: record.value(1) as string,
    tbl_name: record.value(2) as string,
    rootpage,
    sql: record.value(4) as string | null,
    rowid,
    page: n,
  };
}

/**
 * A whole file read and checked: every b-tree that sqlite_schema names,
 * every page of each (interior pages, leaves, overflow chains), the
 * freelist and the pointer map, each page claimed once, and every page of
 * the file held by one of them. What `db info` runs before it reports a
 * file, so that it never counts the rows of a damaged one.
 *
 * @module
 */
import { BtreePage, type TreeKind } from "./btree_page.ts";
import { claimFreelist, claimPointerMap } from "./freelist.ts";
import { LeafReader } from "./leaf_reader.ts";
import { Payloads } from "./overflow.ts";
import { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { readSchemaRows, type SchemaRow } from "./schema_rows.ts";
import { claimTree, TreeWalk } from "./tree_walk.ts";

/** What a check of a whole file found. */
export interface FileCheck {
  /** The rows of each table and the entries of each index, by name. */
  readonly rows: ReadonlyMap<string, number>;
  /** Free pages. */
  readonly free: number;
}

/** Whether a schema row's tree is an index b-tree (an index, or a WITHOUT ROWID table). */
export function treeKind(row: Pick<SchemaRow, "type" | "sql">): TreeKind {
  if (row.type !== "table") return "index";
  return /\)\s*(?:STRICT\s*,\s*)?WITHOUT\s+ROWID\s*(?:,\s*STRICT\s*)?;?\s*$/i.test(row.sql ?? "")
    ? "index"
    : "table";
}

/**
 * Reads and checks every page of a file (see the module documentation).
 *
 * @param src the file
 * @returns the rows of each table and index
 * @throws {SqliteDamageError} at the first damage found
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { checkFile } from "./check.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * (await checkFile(src)).rows.get("users"); // 4
 * src.close();
 * ```
 */
export async function checkFile(src: PageSource): Promise<FileCheck> {
  const names = new Map<number, string>([[1, "sqlite_schema"]]);
  const owners = new PageOwners(src, (root) => names.get(root) ?? `root page ${root}`);
  const schema = readSchemaRows(src, owners);
  const trees = schema.filter((r) => r.rootpage > 0);
  for (const t of trees) if (!names.has(t.rootpage)) names.set(t.rootpage, `${t.type} ${t.name}`);
  for (const t of trees) claimTree(src, t.rootpage, treeKind(t), owners);
  const free = claimFreelist(src, owners);
  claimPointerMap(src, owners);
  const rows = new Map<string, number>();
  const page = new BtreePage(src);
  const payloads = new Payloads(src, owners);
  for (const t of trees) {
    const kind = treeKind(t);
    const reader = new LeafReader(new TreeWalk(src, t.rootpage, kind, owners, "expect"));
    let count = 0;
    try {
      for (;;) {
        let item = reader.take();
        if (item instanceof Promise) item = await item;
        if (item === null) break;
        if (item.cell) page.single(item.page, item.buf, item.payload, item.overflow);
        else page.parse(item.page, item.buf, item.base, kind, item.bounds, true);
        for (let i = 0; i < page.count; i++) if (page.overflow[i] !== 0) payloads.check(page, i);
        count += page.count;
        reader.release(item);
      }
    } finally {
      await reader.settle();
    }
    rows.set(t.name, count);
  }
  for (let n = 2; n <= src.pages; n++) {
    if (owners.owner(n) === 0) {
      throw src.damaged(n, "no b-tree, overflow chain or freelist holds it (SQLite: never used)");
    }
  }
  return { rows, free };
}

/**
 * Before SQLite compares a table's rows, the indexes its queries can look
 * rows up through are read and their key order checked (lib/sqlite_format
 * key_order.ts): the engine's keyed comparison finds each row's partner
 * through the other side's key index, and a lookup through an index whose
 * leaves are out of order misses rows that are there, so the diff would
 * report rows neither file holds. The file reader walked each index's
 * interior pages already; this reads its leaves too, and only for the
 * tables the engine diffs.
 *
 * How each index's fields compare (their collation and ASC or DESC) is
 * SQLite's own word (`PRAGMA index_xinfo`); an index with a collation the
 * check does not know (an application's own) is left to SQLite.
 *
 * @module
 */
import type { Database } from "../sqlite/database.ts";
import {
  checkKeyOrder,
  type KeyField,
  KeyOrder,
  knownCollation,
} from "../sqlite_format/key_order.ts";
import type { PageSide } from "./_page_sides.ts";
import { compareByRecord, type TreeSide } from "./_tree_compare.ts";
import { ident, stringLiteral } from "../sqlite/sql_text.ts";
import type { TableSchema } from "./schema.ts";

/** One side of a table whose indexes are checked. */
export interface IndexSide {
  /** The side's schema name in the engine (`main`, `aft`). */
  readonly schema: string;
  readonly table: TableSchema;
  readonly pages: PageSide;
}

/** One tree to check: where it is and how its keys compare. */
interface OrderedTree {
  readonly name: string;
  readonly sql: string | null;
  readonly root: number;
  readonly own: boolean;
  readonly fields: readonly KeyField[];
}

/** The trees of `table` on one side whose key order SQLite's lookups rely on and the check knows. */
function treesOf(db: Database, { schema, table, pages }: IndexSide): OrderedTree[] {
  const list = db.query(
    `SELECT name, origin FROM pragma_index_list(${stringLiteral(table.name)}, ${
      stringLiteral(schema)
    })`,
  );
  const out: OrderedTree[] = [];
  for (const row of list) {
    const name = String(row["name"]);
    // A WITHOUT ROWID table's key is its own tree.
    const own = table.withoutRowid && row["origin"] === "pk";
    const entry = pages.rows.find((r) => r.type === "index" && r.name === name);
    const root = own ? table.rootPage : entry?.rootpage;
    if (root === undefined || root <= 0) continue;
    const info = db.query(
      `SELECT coll, "desc", "key" FROM pragma_index_xinfo(${stringLiteral(name)}, ${
        stringLiteral(schema)
      }) ORDER BY seqno`,
    );
    const fields: KeyField[] = [];
    let known = true;
    for (const f of info) {
      // The tree of a WITHOUT ROWID table is ordered by its key columns only.
      if (own && Number(f["key"]) === 0) break;
      const collation = knownCollation(String(f["coll"] ?? "BINARY"));
      if (collation === undefined) known = false;
      fields.push({ collation: collation ?? "binary", desc: Number(f["desc"]) === 1 });
    }
    if (known && fields.length > 0) {
      out.push({ name, sql: own ? table.sql : entry?.sql ?? null, root, own, fields });
    }
  }
  return out;
}

/**
 * Checks the key order of every index of a table on each side, and of the
 * table's own tree when it is WITHOUT ROWID. An index of one name, SQL and
 * fields on both sides is read on both in one pass, as the page comparison
 * reads a table (_tree_compare.ts), so a leaf that is the same page with
 * the same bytes on both sides is checked once.
 *
 * @param db the engine
 * @param before the before side, or null where the table is absent
 * @param after the after side, or null
 * @param ordered for a WITHOUT ROWID table, the fields under which the
 *   comparison of its pages found its tree in order on both sides
 *   (_residue.ts), or null
 * @returns when every index is in order
 * @throws {SqliteDamageError} at the first entry out of order
 */
export async function checkIndexOrder(
  db: Database,
  before: IndexSide | null,
  after: IndexSide | null,
  ordered: readonly KeyField[] | null = null,
): Promise<void> {
  const sides = [before, after].map((side) => {
    if (side === null) return [];
    // Checked already as the page comparison read it, the fields as SQLite gives them.
    return treesOf(db, side).filter((t) =>
      !(t.own && ordered !== null && sameFields(t.fields, ordered))
    );
  });
  const [xs, ys] = sides as [OrderedTree[], OrderedTree[]];
  const tree = (side: IndexSide, t: OrderedTree): TreeSide & { order: KeyOrder } => ({
    src: side.pages.src,
    // A WITHOUT ROWID table's tree was read by the page comparison already: its pages are not claimed again.
    owners: t.own ? null : side.pages.owners,
    root: t.root,
    order: new KeyOrder(t.fields, `${t.own ? "table" : "index"} ${ident(t.name)}`),
  });
  for (const x of xs) {
    const y = ys.find((t) => t.name === x.name);
    if (y !== undefined && y.sql === x.sql && y.own === x.own && sameFields(x.fields, y.fields)) {
      ys.splice(ys.indexOf(y), 1);
      await compareByRecord(tree(before!, x), tree(after!, y), "index", () => {});
    } else await checkOne(tree(before!, x));
  }
  for (const y of ys) await checkOne(tree(after!, y));
}

async function checkOne(t: TreeSide & { order: KeyOrder }): Promise<void> {
  await checkKeyOrder(t.src, t.root, t.order.fields, t.owners, t.order.name);
}

function sameFields(a: readonly KeyField[], b: readonly KeyField[]): boolean {
  return a.length === b.length &&
    a.every((f, i) => f.collation === b[i]!.collation && f.desc === b[i]!.desc);
}

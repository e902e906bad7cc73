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
import { checkKeyOrder, type Collation, type KeyField } from "../sqlite_format/key_order.ts";
import type { PageSide } from "./_page_sides.ts";
import { ident, stringLiteral } from "../sqlite/sql_text.ts";
import type { TableSchema } from "./schema.ts";

const COLLATIONS: Record<string, Collation> = {
  binary: "binary",
  nocase: "nocase",
  rtrim: "rtrim",
};

/**
 * Checks the key order of every index of `table` on one side, and of the
 * table's own tree when it is WITHOUT ROWID.
 *
 * @param db the engine
 * @param schema the side's schema name there (`main`, `aft`)
 * @param table the table
 * @param side the side's pages
 * @param ordered for a WITHOUT ROWID table, the fields under which the
 *   comparison of its pages found its tree in order (_residue.ts), or null
 * @returns when every index is in order
 * @throws {SqliteDamageError} at the first entry out of order
 */
export async function checkIndexOrder(
  db: Database,
  schema: string,
  table: TableSchema,
  side: PageSide,
  ordered: readonly KeyField[] | null = null,
): Promise<void> {
  const list = db.query(
    `SELECT name, origin FROM pragma_index_list(${stringLiteral(table.name)}, ${
      stringLiteral(schema)
    })`,
  );
  for (const row of list) {
    const name = String(row["name"]);
    // A WITHOUT ROWID table's key is its own tree.
    const own = table.withoutRowid && row["origin"] === "pk";
    const root = own
      ? table.rootPage
      : side.rows.find((r) => r.type === "index" && r.name === name)?.rootpage;
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
      const collation = COLLATIONS[String(f["coll"] ?? "BINARY").toLowerCase()];
      if (collation === undefined) known = false;
      fields.push({ collation: collation ?? "binary", desc: Number(f["desc"]) === 1 });
    }
    if (!known || fields.length === 0) continue;
    // Checked already as the page comparison read it, the fields as SQLite gives them.
    if (own && ordered !== null && sameFields(fields, ordered)) continue;
    // A WITHOUT ROWID table's tree was read by the page comparison already: its pages are not claimed again.
    await checkKeyOrder(
      side.src,
      root,
      fields,
      own ? null : side.owners,
      `${own ? "table" : "index"} ${ident(name)}`,
    );
  }
}

function sameFields(a: readonly KeyField[], b: readonly KeyField[]): boolean {
  return a.length === b.length &&
    a.every((f, i) => f.collation === b[i]!.collation && f.desc === b[i]!.desc);
}

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { diffDatabaseDiffs } from "./diff_of_diffs.ts";
import type { DatabaseDiff } from "./types.ts";

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

const BASE = "CREATE TABLE t(id INTEGER PRIMARY KEY, v); CREATE TABLE k(a);" +
  "INSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c'); INSERT INTO k VALUES (1),(1);";

async function diffOf(changes: string): Promise<DatabaseDiff> {
  n++;
  const a = makeDb(dir.file(`a${n}.db`), BASE);
  const b = makeDb(dir.file(`b${n}.db`), `${BASE} ${changes}`);
  const diff = structuredClone(await diffSqliteDatabases(a, b));
  // Both diffs describe the same database name.
  return { ...diff, databases: diff.databases.map((d) => ({ ...d, name: "app.db" })) };
}

function summary(diff: DatabaseDiff): unknown[] {
  return diff.databases.flatMap((d) =>
    d.tables.map((t) => [
      t.name,
      t.status,
      t.rows.added.map((r) => r.row),
      t.rows.removed.map((r) => r.row),
      t.rows.changed.map((r) => [r.key, r.after]),
      t.columns.added.map((c) => c.name),
    ])
  );
}

describe("diffDatabaseDiffs()", () => {
  it("splits row changes into shared, beforeOnly and afterOnly", async () => {
    const reference = await diffOf(
      "INSERT INTO t VALUES (4,'d'); UPDATE t SET v = 'B' WHERE id = 2; DELETE FROM t WHERE id = 3;",
    );
    const agent = await diffOf(
      "INSERT INTO t VALUES (4,'d'); UPDATE t SET v = 'X' WHERE id = 2; INSERT INTO t VALUES (5,'e');",
    );
    const { beforeOnly, afterOnly, shared } = diffDatabaseDiffs(reference, agent);
    assert.deepEqual(summary(shared), [["t", "changed", [{ id: 4, v: "d" }], [], [], []]]);
    assert.deepEqual(summary(beforeOnly), [
      ["t", "changed", [], [{ id: 3, v: "c" }], [[{ id: 2 }, { id: 2, v: "B" }]], []],
    ]);
    assert.deepEqual(summary(afterOnly), [
      ["t", "changed", [{ id: 5, v: "e" }], [], [[{ id: 2 }, { id: 2, v: "X" }]], []],
    ]);
    assert.equal(shared.databases[0]?.tables[0]?.counts.added, 1);
  });

  it("matches added keyless rows as a multiset", async () => {
    const one = await diffOf("INSERT INTO k VALUES (2);");
    const two = await diffOf("INSERT INTO k VALUES (2),(2);");
    const { afterOnly, shared, beforeOnly } = diffDatabaseDiffs(one, two);
    assert.deepEqual(summary(shared), [["k", "changed", [{ a: 2 }], [], [], []]]);
    assert.deepEqual(summary(afterOnly), [["k", "changed", [{ a: 2 }], [], [], []]]);
    assert.deepEqual(beforeOnly.databases, []);
  });

  it("matches schema changes by table, column and definition", async () => {
    const one = await diffOf("ALTER TABLE t ADD COLUMN email TEXT; CREATE INDEX iv ON t(v);");
    const two = await diffOf("ALTER TABLE t ADD COLUMN email INTEGER; CREATE INDEX iv ON t(v);");
    const { afterOnly, shared, beforeOnly } = diffDatabaseDiffs(one, two);
    assert.deepEqual(shared.databases[0]?.objects.map((o) => o.name), ["iv"]);
    assert.deepEqual(shared.databases[0]?.tables, []);
    assert.deepEqual(summary(beforeOnly), [["t", "changed", [], [], [], ["email"]]]);
    assert.equal(afterOnly.databases[0]?.tables[0]?.columns.added[0]?.type, "INTEGER");
  });

  it("puts two identical diffs entirely in shared", async () => {
    const one = await diffOf("DELETE FROM t WHERE id = 1;");
    const { beforeOnly, afterOnly, shared } = diffDatabaseDiffs(one, one);
    assert.deepEqual([beforeOnly.databases, afterOnly.databases], [[], []]);
    assert.deepEqual(
      summary(shared),
      summary(one).filter((t) => (t as unknown[])[1] !== "unchanged"),
    );
  });

  it("matches a database added on both sides as shared", async () => {
    n++;
    const file = makeDb(dir.file(`new${n}.db`), "CREATE TABLE t(a);");
    const one = await diffSqliteDatabases(null, file);
    const { shared, beforeOnly } = diffDatabaseDiffs(one, one);
    assert.deepEqual(shared.databases.map((d) => [d.status, d.exists_before]), [["added", false]]);
    assert.deepEqual(beforeOnly.databases, []);
  });
});

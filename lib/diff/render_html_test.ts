import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffSql } from "./_test_util.ts";
import { renderDiffHtml } from "./render_html.ts";
import { type DatabaseChange, type DatabaseDiff, DIFF_FORMAT_VERSION } from "./types.ts";

function document(db: DatabaseChange): DatabaseDiff {
  return {
    version: DIFF_FORMAT_VERSION,
    settings: { include_schema: true, include_data: true, max_rows: 1000, tables: null },
    databases: [db],
  };
}

const columns = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe("renderDiffHtml()", () => {
  it("renderDiffHtml() leaves out the rows with target schema and the CREATE statements with target data", async () => {
    const db = await diffSql(
      "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a');",
      "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, w TEXT); INSERT INTO t VALUES (1, 'b', NULL);",
    );
    const schema = renderDiffHtml(document(db), { target: "schema" });
    assert.match(schema, /<pre>CREATE TABLE t\(id INTEGER PRIMARY KEY, v TEXT, w TEXT\)<\/pre>/);
    assert.doesNotMatch(schema, /<tr class="changed">/);
    const data = renderDiffHtml(document(db), { target: "data" });
    assert.match(data, /<tr class="changed">/);
    assert.doesNotMatch(data, /<pre>CREATE TABLE/);
  });

  it("renderDiffHtml() shows a wide table's changed rows by their key and the columns that changed", async () => {
    const cols = columns(30);
    const create = `CREATE TABLE w(id INTEGER PRIMARY KEY, ${cols.join(", ")});`;
    const values = (changed: boolean) =>
      cols.map((c, i) => (changed && i === 7 ? "'new'" : `'${c}'`));
    const db = await diffSql(
      `${create} INSERT INTO w VALUES (1, ${values(false).join(", ")});`,
      `${create} INSERT INTO w VALUES (1, ${values(true).join(", ")});`,
    );
    const page = renderDiffHtml(document(db));
    assert.match(page, /29 columns that no row below changed are left out/);
    assert.match(
      page,
      /<tr class="changed"><td class="kind">~<\/td><td class="key">1<\/td><td class="chg"><span class="old">c7<\/span>/,
    );
  });

  it("renderDiffHtml() reads rows of 100 columns or more from their held values", async () => {
    const cols = columns(120);
    const create = `CREATE TABLE h(id INTEGER PRIMARY KEY, ${cols.join(", ")});`;
    const db = await diffSql(
      create,
      `${create} INSERT INTO h VALUES (1, ${cols.map((c) => `'${c}'`).join(", ")});`,
    );
    const page = renderDiffHtml(document(db));
    assert.equal((page.match(/<td>c\d+<\/td>/g) ?? []).length, 120);
    assert.match(page, /<td>c119<\/td><\/tr>/);
  });
});

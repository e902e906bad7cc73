import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { PageSource } from "../sqlite_format/page_source.ts";
import { readSchemaRows } from "../sqlite_format/schema_rows.ts";
import { cellRowsFit } from "./_cell_rows.ts";
import { sideSchema } from "./_page_schema.ts";

const dir = tempDir();
after(() => dir.cleanup());

describe("cellRowsFit()", () => {
  const shapes = makeDb(
    dir.file("shapes.db"),
    `CREATE TABLE alias(id INTEGER PRIMARY KEY, v);
     CREATE TABLE keyless(a, b);
     CREATE TABLE intkey(id INT PRIMARY KEY, v);
     CREATE TABLE wr(k INTEGER PRIMARY KEY, v) WITHOUT ROWID;
     CREATE TABLE gen(id INTEGER PRIMARY KEY, a, b AS (a + 1));
     CREATE TABLE stored(id INTEGER PRIMARY KEY, a, b AS (a + 1) STORED);
     CREATE TABLE literal(id INTEGER PRIMARY KEY, a DEFAULT 7, b TEXT DEFAULT 'x', c REAL DEFAULT -1.5, d BLOB DEFAULT x'00ff', e DEFAULT NULL, f INT DEFAULT TRUE);
     CREATE TABLE expr(id INTEGER PRIMARY KEY, a DEFAULT (1 + 2));
     CREATE TABLE now(id INTEGER PRIMARY KEY, a DEFAULT CURRENT_TIMESTAMP);
     CREATE TABLE numeric_text(id INTEGER PRIMARY KEY, a INTEGER DEFAULT '12');`,
  );
  // table, paired by rowid (--rowid), whether its rows may be read from its cells
  const cases: [string, boolean, boolean][] = [
    ["alias", false, true],
    ["alias", true, true],
    ["keyless", false, false],
    ["keyless", true, true],
    ["intkey", false, false],
    ["intkey", true, true],
    ["wr", false, false],
    ["gen", false, false],
    ["stored", false, true],
    ["literal", false, true],
    ["expr", false, false],
    ["now", false, false],
    ["numeric_text", false, false],
  ];
  for (const [name, pairByRowid, expected] of cases) {
    it(`says ${expected} for ${name}${pairByRowid ? " paired by rowid" : ""}`, () => {
      const src = PageSource.open(shapes);
      try {
        const t = sideSchema(readSchemaRows(src, null), pairByRowid)!.tables.get(name)!;
        assert.equal(cellRowsFit(t), expected);
      } finally {
        src.close();
      }
    });
  }
});

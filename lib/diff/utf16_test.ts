/**
 * UTF-16 databases diffed like UTF-8 ones: a UTF-8 file and its UTF-16le
 * and UTF-16be copies show no change in any pairing, changes read the same
 * from either encoding, and unpaired surrogates are read as the file holds
 * them, on the file reader's path (rowid tables) and the engine's (a
 * keyless table, compared by SQLite in a UTF-8 copy).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "../../tests/fixtures.ts";
import { diffSqliteDatabases } from "./diff_sqlite.ts";
import { diffFromJson, diffToJson } from "./json.ts";
import { renderDiffText } from "./render_text.ts";
import type { DatabaseChange } from "./types.ts";
import { needs } from "../../tests/system_packages.ts";
import {
  applyChangeset,
  applySqlWithShell,
  changesetPatch,
  differences,
  sqlPatch,
} from "../../tests/apply_patch.ts";

async function diff(a: string, b: string): Promise<DatabaseChange> {
  return (await diffSqliteDatabases(a, b)).databases[0]!;
}

const dir = tempDir();
after(() => dir.cleanup());
let n = 0;

const ENCODINGS = ["UTF-8", "UTF-16le", "UTF-16be"] as const;
type Encoding = typeof ENCODINGS[number];

function make(encoding: Encoding, sql: string): string {
  const file = dir.file(`u${++n}.db`);
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA encoding = '${encoding}'; ${sql}`);
  db.close();
  return file;
}

const SCHEMA = `
  CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT);
  CREATE TABLE k (a TEXT, b);
  CREATE TABLE w (p TEXT PRIMARY KEY, q) WITHOUT ROWID;
  CREATE TABLE c (name TEXT PRIMARY KEY COLLATE NOCASE, v);
  CREATE INDEX k_a ON k(a);`;
const ROWS = `
  INSERT INTO t VALUES (1, 'héllo'), (2, 'wörld ☃'), (3, '😀 emoji'), (4, 'nul' || char(0) || 'x');
  INSERT INTO k VALUES ('x', 1), ('ÿ', 2.5), ('x', 1), (NULL, x'00ff');
  INSERT INTO w VALUES ('é', 1), ('e', 2), ('😀', 3);
  INSERT INTO c VALUES ('Ärger', 1), ('abc', 2);`;
const EDIT = `
  UPDATE t SET s = 'wörld ☄' WHERE id = 2; DELETE FROM t WHERE id = 3;
  INSERT INTO k VALUES ('ü', 9); UPDATE w SET q = 'ö' WHERE p = 'é'; UPDATE c SET v = 3 WHERE name = 'ABC';`;

function summary(d: DatabaseChange): string[] {
  return d.tables.map((t) =>
    `${t.name} ${t.status} +${t.counts.added} -${t.counts.removed} ~${t.counts.changed}`
  );
}

describe("diffSqliteDatabases() on UTF-16 databases", () => {
  for (const a of ENCODINGS) {
    for (const b of ENCODINGS) {
      it(`finds no change between a ${a} file and a ${b} copy of it`, async () => {
        const d = await diff(make(a, SCHEMA + ROWS), make(b, SCHEMA + ROWS));
        assert.equal(d.status, "unchanged", summary(d).join("\n"));
      });
    }
  }

  it("finds the same changes whichever encodings the two sides have", async () => {
    const want = summary(
      await diff(make("UTF-8", SCHEMA + ROWS), make("UTF-8", SCHEMA + ROWS + EDIT)),
    );
    assert.deepEqual(want, [
      "c changed +0 -0 ~1",
      "k changed +1 -0 ~0",
      "t changed +0 -1 ~1",
      "w changed +0 -0 ~1",
    ]);
    for (const a of ENCODINGS) {
      for (const b of ENCODINGS) {
        const d = await diff(make(a, SCHEMA + ROWS), make(b, SCHEMA + ROWS + EDIT));
        assert.deepEqual(summary(d), want, `${a} -> ${b}`);
        const t = d.tables.find((x) => x.name === "t")!;
        assert.deepEqual({ ...t.rows.changed[0]!.after }, { id: 2, s: "wörld ☄" });
        const k = d.tables.find((x) => x.name === "k")!;
        assert.deepEqual({ ...k.rows.added[0]!.row }, { a: "ü", b: 9 });
      }
    }
  });

  for (const le of [true, false]) {
    const encoding = le ? "UTF-16le" : "UTF-16be";
    // U+D800 and U+DC00 alone: 'a' then the unpaired unit, in the file's byte order.
    const lone = (unit: string) =>
      `CAST(x'${le ? `6100${unit.slice(2)}${unit.slice(0, 2)}` : `0061${unit}`}' AS TEXT)`;
    it(`reads unpaired surrogates of a ${encoding} file exactly, through the file reader and the engine`, async () => {
      const sql = `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT); CREATE TABLE k (s TEXT);`;
      const before = make(
        encoding,
        `${sql} INSERT INTO t VALUES (1, 'a'); INSERT INTO k VALUES (${lone("d800")});`,
      );
      const afterFile = make(
        encoding,
        `${sql} INSERT INTO t VALUES (1, ${lone("d800")}); INSERT INTO k VALUES (${lone("dc00")});`,
      );
      const d = await diff(before, afterFile);
      const t = d.tables.find((x) => x.name === "t")!;
      assert.equal(t.rows.changed[0]!.after["s"], "a\ud800");
      const k = d.tables.find((x) => x.name === "k")!;
      assert.deepEqual(k.counts, {
        added: 1,
        removed: 1,
        changed: 0,
        ...("changed_cells" in k.counts ? { changed_cells: 0 } : {}),
      });
      assert.equal(k.rows.removed[0]!.row["s"], "a\ud800");
      assert.equal(k.rows.added[0]!.row["s"], "a\udc00");
      // In JSON, as \\u escapes, read back the same.
      const whole = await diffSqliteDatabases(before, afterFile);
      const json = diffToJson(whole);
      assert.match(json, /"a\\ud800"/);
      assert.deepEqual(diffFromJson(json), whole);
      // In the text, as char() (a terminal would show U+FFFD).
      assert.match(renderDiffText(whole), /s 'a' -> 'a'\|\|char\(55296\)/);
      assert.equal((await diff(afterFile, afterFile)).status, "unchanged");
    });
  }

  it("reads a UTF-16 database whose encoding is only in its -wal", async () => {
    const scratch = tempDir();
    try {
      const writing = scratch.file("w.db");
      const db = new DatabaseSync(writing);
      db.exec(`PRAGMA encoding = 'UTF-16le'; PRAGMA journal_mode = WAL;
        PRAGMA wal_autocheckpoint = 0; CREATE TABLE t(x); INSERT INTO t VALUES ('hé');`);
      const copy = dir.file(`u${++n}.db`);
      fs.copyFileSync(writing, copy);
      fs.copyFileSync(`${writing}-wal`, `${copy}-wal`);
      db.close();
      assert.deepEqual([...fs.readFileSync(copy).subarray(56, 60)], [0, 0, 0, 0]);
      const d = await diff(
        copy,
        make("UTF-8", "CREATE TABLE t(x); INSERT INTO t VALUES ('hé');"),
      );
      assert.equal(d.status, "unchanged", summary(d).join("\n"));
    } finally {
      scratch.cleanup();
    }
  });
});

describe("db diff --sql and --changeset of UTF-16 databases", { skip: needs("sqlite3") }, () => {
  for (const le of [true, false]) {
    const encoding = le ? "UTF-16le" : "UTF-16be";
    const unit = (hex: string) => (le ? `${hex.slice(2)}${hex.slice(0, 2)}` : hex);
    const lone = (hex: string) => `CAST(x'${unit("0061")}${unit(hex)}' AS TEXT)`;
    const sql =
      `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT); CREATE TABLE p (id INTEGER PRIMARY KEY, s TEXT);
      CREATE TABLE k (s TEXT);`;
    const before = () =>
      make(
        encoding,
        `${sql} INSERT INTO t VALUES (1, 'a'), (2, 'é'); INSERT INTO p VALUES (1, 'x');
         INSERT INTO k VALUES (${lone("d800")}), ('ü');`,
      );
    const afterFile = () =>
      make(
        encoding,
        `${sql} INSERT INTO t VALUES (1, ${lone("d800")}), (2, 'ë'), (3, ${lone("dfff")});
         INSERT INTO p VALUES (1, 'y😀'); INSERT INTO k VALUES (${lone("dc00")}), ('ü'), ('ö');`,
      );

    it(`--sql applied by the sqlite3 shell to a ${encoding} file gives the after file, unpaired surrogates too`, async () => {
      const a = before();
      const b = afterFile();
      const script = await sqlPatch(a, b);
      assert.match(script, /CAST\(x'[0-9a-f]+' AS TEXT\)/);
      const out = dir.file(`u${++n}.db`);
      assert.equal(applySqlWithShell(a, script, out), null);
      assert.deepEqual(await differences(out, b), []);
    });

    it(`--changeset into a ${encoding} file carries every row it can, and names the table whose text it cannot`, async () => {
      const a = before();
      const b = afterFile();
      const { bytes, omitted } = await changesetPatch(a, b);
      assert.deepEqual([...omitted].sort(), ["k", "t"]);
      const out = dir.file(`u${++n}.db`);
      assert.equal(await applyChangeset(a, bytes, out), null);
      // k has no key (not in a changeset either); p came through exactly.
      assert.deepEqual(await differences(out, b, ["t", "k"]), []);
    });
  }
});

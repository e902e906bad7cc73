/**
 * `db diff --key`, `--ignore` and `--ignore-table`: the flags reach the
 * diff, a key that cannot pair rows is one line and exit 2, and the patch
 * outputs refuse an aimed diff.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";

const dir = tempDir();
after(() => dir.cleanup());

const BEFORE = `CREATE TABLE people(email TEXT, name, updated_at);
  INSERT INTO people VALUES ('a@x', 'Ann', 1), ('b@x', 'Bob', 1), ('c@x', 'Cy', 1);
  DELETE FROM people WHERE email = 'a@x';
  CREATE TABLE audit(n); INSERT INTO audit VALUES (1);`;
const AFTER = `${BEFORE} VACUUM; UPDATE people SET name = 'Bo', updated_at = 2 WHERE email = 'b@x';
  UPDATE people SET updated_at = 2 WHERE email = 'c@x'; INSERT INTO audit VALUES (2);`;
const a = makeDb(dir.file("before.db"), BEFORE);
const b = makeDb(dir.file("after.db"), AFTER);

describe("db diff --key / --ignore / --ignore-table", () => {
  it("pairs by the key, leaves the column and the table out, and says so in the JSON", () => {
    const plain = runCli(["db", "diff", a, b, "--summary"]);
    assert.match(plain.stdout, /people: 0 changed, 2 added, 2 removed/);
    const json = dir.file("aimed.json");
    const r = runCli([
      "db",
      "diff",
      a,
      b,
      "--key",
      "people=email",
      "--ignore",
      "*_at",
      "--ignore-table",
      "aud*",
      "--summary",
      "--json",
      json,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "after.db: changed\n  people: 1 changed (1 cell), 0 added, 0 removed\n");
    const doc = JSON.parse(fs.readFileSync(json, "utf8"));
    assert.deepEqual(
      [doc.settings.keys, doc.settings.ignore, doc.settings.ignore_tables],
      [{ people: ["email"] }, ["*_at"], ["aud*"]],
    );
    const people = doc.databases[0].tables[0];
    assert.deepEqual([people.key, people.ignored_columns], [["email"], ["updated_at"]]);
    assert.deepEqual(people.rows.changed[0].after, { email: "b@x", name: "Bo" });
    assert.deepEqual(doc.databases[0].skipped, [
      { name: "audit", reason: "left out by ignore_tables (--ignore-table)" },
    ]);
  });

  it("refuses a key that is not unique with one line and exit 2", () => {
    const dup = makeDb(
      dir.file("dup.db"),
      `${AFTER} INSERT INTO people VALUES ('b@x', 'Twin', 3);`,
    );
    const r = runCli(["db", "diff", a, dup, "--key", "people=email"]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: --key people=email: the key is not unique in ${dup}: 2 rows of "people" have email = 'b@x'; choose columns that name one row on each side\n`,
    );
    const bad = runCli(["db", "diff", a, b, "--key", "people"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: --key people: write TABLE=COLUMN\[,COLUMN\.\.\.\]/);
  });

  it("refuses a key on a table neither file has, naming the tables they have, exit 2", () => {
    const r = runCli(["db", "diff", a, b, "--key", "peple=email"]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `error: --key peple=email: no table "peple" in ${a} or ${b} (tables there: audit, people); name a table the files have\n`,
    );
    assert.equal(r.stdout, "");
    // A table left out, or outside --table, is not a mistake.
    for (const more of [["--ignore-table", "peple"], ["--table", "audit"]]) {
      const ok = runCli(["db", "diff", a, b, "--key", "peple=email", ...more]);
      assert.deepEqual([ok.code, ok.stderr], [0, ""]);
    }
  });

  it("refuses --sql and --changeset with --key or --ignore, which a patch cannot follow", () => {
    for (const [out, aim] of [["--sql", "--key"], ["--changeset", "--ignore"]] as const) {
      const r = runCli([
        "db",
        "diff",
        a,
        b,
        out,
        dir.file("patch"),
        aim,
        aim === "--key" ? "people=email" : "name",
      ]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`^error: ${out} writes a patch.*${aim} aims the diff`));
    }
  });
});

/**
 * What the counterexample benchmark and its test share: building the pair
 * databases, checking an instance's two claims, and reproducing a claimed
 * counterexample in two other SQLite builds.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { compareRows } from "../lib/compare/rows.ts";
import type { Instance } from "./counterexample_pairs.ts";

/** What validating a pair needs of an instance (either pair set's). */
export type Claims = Pick<Instance, "reference" | "equivalent" | "nearMiss" | "proof" | "ordered">;

export type Rows = Record<string, unknown>[];

export function build(dir: string, name: string, sql: string): string {
  const file = path.join(dir, name);
  const db = new DatabaseSync(file);
  db.exec(sql);
  db.close();
  return file;
}

function query(db: DatabaseSync, sql: string): Rows {
  return db.prepare(sql).all().map((r) => ({ ...r }));
}

export function tableSql(file: string): Map<string, string> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return new Map(
      (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL")
        .all() as { name: string; sql: string }[]).map((r) => [r.name, r.sql]),
    );
  } finally {
    db.close();
  }
}

/** Both claims of an instance: rewrites agree on the given database, the proof tells the near miss apart. */
export function validate(i: Claims, file: string, schema: Map<string, string>): string | null {
  const opts = { ordered: i.ordered ?? false };
  const given = new DatabaseSync(file, { readOnly: true });
  try {
    const ref = query(given, i.reference);
    if (!compareRows(query(given, i.equivalent), ref, opts)) {
      return "equivalent differs on the given database";
    }
    if (!compareRows(query(given, i.nearMiss), ref, opts)) {
      return "near miss differs on the given database";
    }
  } catch (e) {
    return `fails on the given database: ${(e as Error).message}`;
  } finally {
    given.close();
  }
  const proof = new DatabaseSync(":memory:");
  try {
    proof.exec("PRAGMA foreign_keys = ON");
    for (const sql of schema.values()) proof.exec(sql);
    proof.exec(i.proof);
    if (query(proof, "PRAGMA foreign_key_check").length > 0) return "proof breaks a foreign key";
    const ref = query(proof, i.reference);
    if (compareRows(query(proof, i.nearMiss), ref, opts)) {
      return "proof does not tell the near miss apart";
    }
    if (!compareRows(query(proof, i.equivalent), ref, opts)) {
      return "proof tells the equivalent apart";
    }
  } catch (e) {
    return `proof fails: ${(e as Error).message}`;
  } finally {
    proof.close();
  }
  return null;
}

/** Runs a claimed counterexample in two other SQLite builds; returns what is wrong, or null. */
export function reproduce(
  script: string,
  pair: { reference: string; candidate: string; ordered: boolean },
  schema: Map<string, string>,
): string | null {
  for (const create of script.split(";\n").filter((s) => s.startsWith("CREATE TABLE"))) {
    if (![...schema.values()].includes(create)) {
      return `CREATE TABLE not verbatim: ${create.slice(0, 60)}`;
    }
  }
  const opts = { ordered: pair.ordered };
  // node:sqlite (the runtime's own SQLite build)
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(script);
    if (query(db, "PRAGMA foreign_key_check").length > 0) {
      return "foreign key check fails (node:sqlite)";
    }
    if (compareRows(query(db, pair.candidate), query(db, pair.reference), opts)) {
      return "the queries agree on it (node:sqlite)";
    }
  } catch (e) {
    return `node:sqlite: ${(e as Error).message}`;
  } finally {
    db.close();
  }
  // the sqlite3 shell (Debian's build)
  const shell = (sql: string): Rows => {
    const r = spawnSync("/usr/bin/sqlite3", ["-bail", "-json", ":memory:"], {
      input: `${script}\n${sql};\n`,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(r.stderr.trim());
    return r.stdout.trim() === "" ? [] : JSON.parse(r.stdout) as Rows;
  };
  try {
    if (shell("PRAGMA foreign_key_check").length > 0) {
      return "foreign key check fails (sqlite3 shell)";
    }
    if (compareRows(shell(pair.candidate), shell(pair.reference), opts)) {
      return "the queries agree on it (sqlite3 shell)";
    }
  } catch (e) {
    return `sqlite3 shell: ${(e as Error).message}`;
  }
  return null;
}

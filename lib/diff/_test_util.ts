/**
 * Helpers for the diff engine's tests: build two real SQLite files from SQL
 * and diff them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { makeDb, type MakeDbOptions, tempDir } from "../../tests/fixtures.ts";
import { diffDatabasePair, diffSqliteDatabases } from "./diff_sqlite.ts";
import { type DiffOptions, diffSettings } from "./options.ts";
import type { TableStrategy } from "./_strategies.ts";
import type { DatabaseChange, TableDiff } from "./types.ts";

let counter = 0;

/** Diffs two files built from `before` and `after` SQL (null: no file). */
export async function diffSql(
  before: string | null,
  after: string | null,
  options: DiffOptions & { journal?: MakeDbOptions["journal"] } = {},
): Promise<DatabaseChange> {
  const dir = tempDir();
  try {
    const n = ++counter;
    const journal = options.journal === undefined ? {} : { journal: options.journal };
    const a = before === null ? null : makeDb(dir.file(`before${n}.db`), before, journal);
    const b = after === null ? null : makeDb(dir.file(`after${n}.db`), after, journal);
    const diff = await diffSqliteDatabases(a, b, options);
    const db = diff.databases[0];
    if (db === undefined) throw new Error("no database in the diff");
    // Rows have no prototype (see emptyRow); a clone makes them plain
    // objects that deepStrictEqual compares with literals.
    return structuredClone(db);
  } finally {
    dir.cleanup();
  }
}

/** The table called `name` in a database change. */
export function table(db: DatabaseChange, name: string): TableDiff {
  const t = db.tables.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no table ${name} in the diff`);
  return t;
}

/** A table's row changes in a compact, comparable form. */
export function rowSummary(t: TableDiff): {
  added: unknown[];
  removed: unknown[];
  changed: unknown[];
} {
  return {
    added: t.rows.added.map((r) => r.row),
    removed: t.rows.removed.map((r) => r.row),
    changed: t.rows.changed.map((r) => ({
      key: r.key,
      before: r.before,
      after: r.after,
      changed_columns: r.changed_columns,
    })),
  };
}

/**
 * Diffs `a` and `b` in a child process (with `tables`: only those) and
 * tells its status and whether it started the WebAssembly engine.
 */
export function childDiff(
  a: string,
  b: string,
  tables?: readonly string[],
): { status: string; started: boolean } {
  const dir = tempDir();
  try {
    const script = dir.file("child.ts");
    const lib = path.resolve(import.meta.dirname ?? ".", "..");
    const options = tables === undefined ? "{}" : JSON.stringify({ tables });
    fs.writeFileSync(
      script,
      `import { diffSqliteDatabases } from ${JSON.stringify(`${lib}/diff/diff_sqlite.ts`)};
       import { sqliteStarted } from ${JSON.stringify(`${lib}/sqlite/wasm.ts`)};
       const d = await diffSqliteDatabases(${JSON.stringify(a)}, ${JSON.stringify(b)}, ${options});
       console.log(JSON.stringify({ status: d.databases[0].status, started: sqliteStarted() }));`,
    );
    const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
    // The repository's configuration: the script lies outside it.
    const config = path.join(lib, "..", "deno.json");
    const args = isBun ? [script] : ["run", "--allow-all", "--quiet", "--config", config, script];
    const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim());
  } finally {
    dir.cleanup();
  }
}

/** A BLOB as its length and an FNV-1a hash: a 3 MB one listed byte by byte is 12 MB of JSON. */
function blobHash(v: Uint8Array): { blob: number; fnv: number } {
  let h = 0x811c9dc5;
  for (let i = 0; i < v.length; i++) h = Math.imul(h ^ v[i]!, 0x01000193) >>> 0;
  return { blob: v.length, fnv: h };
}

/** JSON that keeps BLOBs, big integers and -0 apart from strings and numbers. */
export function valuesJson(x: unknown): string {
  return JSON.stringify(
    x,
    (_, v) =>
      v instanceof Uint8Array
        ? blobHash(v)
        : typeof v === "bigint"
        ? { bigint: String(v) }
        : typeof v === "number" && Object.is(v, -0)
        ? { number: "-0" }
        : v,
  );
}

/**
 * Table `name`'s section of a diff of `a` and `b` and the row events
 * streamed for it, as one JSON text (valuesJson), diffed by `strategies`
 * or the default ones.
 */
export async function tableSeen(
  a: string,
  b: string,
  options: DiffOptions,
  name: string,
  strategies?: readonly TableStrategy[],
): Promise<string> {
  let current = "";
  const events: string[] = [];
  const change = await diffDatabasePair({
    name: "b.db",
    before: a,
    after: b,
    settings: diffSettings(options),
    listener: {
      table: (t) => void (current = t.name),
      row: (e) => void (current === name && events.push(valuesJson(e))),
    },
    ...(strategies === undefined ? {} : { strategies }),
  });
  const t = change.tables.find((x) => x.name === name);
  return valuesJson({ t, events });
}

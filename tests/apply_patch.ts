/**
 * Applying what `db diff` writes and checking the result: `--sql` through
 * the sqlite3 shell, `--changeset` through the WASM build's
 * `sqlite3changeset_apply` (any conflict aborts), then a diff of the result
 * against the after file that must show nothing. Shared by the round-trip
 * tests and bench/roundtrip.ts.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { openMemoryDatabase } from "../lib/sqlite/database.ts";
import { loadSqlite } from "../lib/sqlite/wasm.ts";
import { headerEncoding } from "../lib/sqlite/file_check.ts";
import { DatabaseSync } from "node:sqlite";
import { diffSqliteDatabases, streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
import { SqlRenderer } from "../lib/diff/render_sql.ts";
import { ChangesetRenderer } from "../lib/diff/render_changeset.ts";

interface ApplyCapi {
  sqlite3_malloc(n: number): number;
  sqlite3_free(p: number): void;
  sqlite3_deserialize(
    db: number,
    schema: string,
    data: number,
    size: number,
    buffer: number,
    flags: number,
  ): number;
  sqlite3changeset_apply(
    db: number,
    n: number,
    p: number,
    filter: number,
    conflict: (ctx: number, kind: number, iter: number) => number,
    ctx: number,
  ): number;
}

/** The `--sql` script that turns `a` into `b`. */
export async function sqlPatch(a: string, b: string): Promise<string> {
  let sql = "";
  await streamSqliteDiff(a, b, {}, new SqlRenderer({ write: (t) => void (sql += t) }));
  return sql;
}

/** The `--changeset` bytes that turn `a` into `b`, and the tables left out. */
export async function changesetPatch(
  a: string,
  b: string,
): Promise<{ bytes: Uint8Array; omitted: string[] }> {
  const chunks: Uint8Array[] = [];
  const renderer = new ChangesetRenderer({ write: (x) => void chunks.push(x.slice()) });
  await streamSqliteDiff(a, b, { maxRows: 0 }, renderer);
  const bytes = new Uint8Array(chunks.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of chunks) {
    bytes.set(x, at);
    at += x.length;
  }
  return { bytes, omitted: renderer.omitted.map((o) => o.table) };
}

/**
 * Applies `sql` with the sqlite3 shell (`-bail`) to a byte copy of `file`
 * at `out` (its -wal too).
 *
 * @returns the shell's complaint, or null when it exited 0 and said nothing
 */
export function applySqlWithShell(file: string, sql: string, out: string): string | null {
  fs.copyFileSync(file, out);
  if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${out}-wal`);
  const r = spawnSync("sqlite3", ["-bail", out], {
    input: sql,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error !== undefined) return `sqlite3 did not run: ${r.error.message}`;
  // The shell may exit (-bail) before it has read all of its input: then
  // some runtimes give no output at all.
  const stderr = (r.stderr as string | undefined) ?? "";
  return r.status === 0 && stderr === "" ? null : `sqlite3 exit ${r.status}: ${stderr.trim()}`;
}

/**
 * Applies `changeset` to an in-memory copy of `file` and writes the result
 * to `out`.
 *
 * @returns the conflicts or error, or null when it applied cleanly
 */
export async function applyChangeset(
  file: string,
  changeset: Uint8Array,
  out: string,
): Promise<string | null> {
  if (headerEncoding(file) !== "UTF-8") return applyWithRuntime(file, changeset, out);
  const sqlite = await loadSqlite();
  const capi = sqlite.capi as unknown as ApplyCapi;
  const db = await openMemoryDatabase();
  try {
    const bytes = readWhole(file);
    bytes[18] = 1; // a WAL-mode header cannot be deserialized; the pages are the same
    bytes[19] = 1;
    const p = capi.sqlite3_malloc(Math.max(bytes.length, 1));
    sqlite.wasm.heap8u().set(bytes, p);
    if (capi.sqlite3_deserialize(db.handle, "main", p, bytes.length, bytes.length, 3) !== 0) {
      return "sqlite3_deserialize failed";
    }
    const c = capi.sqlite3_malloc(Math.max(changeset.length, 1));
    sqlite.wasm.heap8u().set(changeset, c);
    const conflicts: number[] = [];
    // SQLITE_CHANGESET_ABORT (2) on any conflict.
    const rc = capi.sqlite3changeset_apply(db.handle, changeset.length, c, 0, (_x, kind) => {
      conflicts.push(kind);
      return 2;
    }, 0);
    capi.sqlite3_free(c);
    if (conflicts.length > 0 || rc !== 0) return `conflicts ${conflicts}, rc ${rc}`;
    fs.writeFileSync(out, sqlite.capi.sqlite3_js_db_export(db.handle));
    return null;
  } finally {
    db.close();
  }
}

/**
 * {@link applyChangeset} for a UTF-16 file, which the WASM build cannot
 * open: the runtime's own SQLite (node:sqlite's applyChangeset, the same
 * sqlite3changeset_apply) on a copy at `out`.
 */
function applyWithRuntime(file: string, changeset: Uint8Array, out: string): string | null {
  fs.copyFileSync(file, out);
  if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${out}-wal`);
  const db = new DatabaseSync(out);
  try {
    const conflicts: number[] = [];
    // SQLITE_CHANGESET_ABORT (2) on any conflict.
    const applied = db.applyChangeset(changeset, {
      onConflict: (kind: number) => {
        conflicts.push(kind);
        return 2;
      },
    });
    if (conflicts.length > 0 || !applied) return `conflicts ${conflicts}, applied ${applied}`;
    db.exec("PRAGMA journal_mode=DELETE");
    return null;
  } finally {
    db.close();
  }
}

/** The bytes of `file` with its -wal folded in (the shell checkpoints a copy). */
function readWhole(file: string): Uint8Array {
  if (!fs.existsSync(`${file}-wal`)) return fs.readFileSync(file);
  const copy = `${file}.whole`;
  fs.copyFileSync(file, copy);
  fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
  spawnSync("sqlite3", [copy, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;"]);
  const bytes = fs.readFileSync(copy);
  fs.rmSync(copy);
  fs.rmSync(`${copy}-wal`, { force: true });
  fs.rmSync(`${copy}-shm`, { force: true });
  return bytes;
}

/**
 * What still differs between `a` and `b`, one line each; empty when
 * `db diff` shows nothing. For a changeset, pass the tables it left out
 * and `objects: false` (it carries no schema: indexes, views, triggers).
 */
export async function differences(
  a: string,
  b: string,
  ignore: readonly string[] = [],
  objects = true,
): Promise<string[]> {
  const diff = await diffSqliteDatabases(a, b, { maxRows: 2 });
  const d = diff.databases[0]!;
  return [
    ...d.tables.filter((t) => t.status !== "unchanged" && !ignore.includes(t.name)).map((t) =>
      `${t.name}: ${t.status} ${JSON.stringify(t.counts)} ${
        JSON.stringify(structuredClone(t.rows), (_k, v) => typeof v === "bigint" ? `${v}n` : v)
      }`
    ),
    ...(objects ? d.objects : []).map((o) => `${o.type} ${o.name}: ${o.status}`),
  ];
}

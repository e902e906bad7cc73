/**
 * Loads the SQLite WebAssembly module once per process and describes the
 * small part of its low-level surface that this package uses. The package's
 * own typings cover the oo1 API well but not the struct binder and the raw
 * exports, so the shapes we rely on are written down here.
 *
 * @module
 */
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import sqlite3InitModule from "@sqlite.org/sqlite-wasm";

/** A pointer into the WASM heap. */
export type Ptr = number;

/** A bound C struct (sqlite3_vfs, sqlite3_io_methods, sqlite3_file). */
export interface Struct {
  readonly pointer: Ptr;
  dispose(): void;
  [member: `$${string}`]: unknown;
}

/** The raw C exports we call in hot loops. */
export interface RawExports {
  sqlite3_step(stmt: Ptr): number;
  sqlite3_reset(stmt: Ptr): number;
  sqlite3_finalize(stmt: Ptr): number;
  sqlite3_clear_bindings(stmt: Ptr): number;
  sqlite3_column_count(stmt: Ptr): number;
  sqlite3_column_type(stmt: Ptr, i: number): number;
  sqlite3_column_int64(stmt: Ptr, i: number): bigint;
  sqlite3_column_double(stmt: Ptr, i: number): number;
  sqlite3_column_text(stmt: Ptr, i: number): Ptr;
  sqlite3_column_blob(stmt: Ptr, i: number): Ptr;
  sqlite3_column_bytes(stmt: Ptr, i: number): number;
  sqlite3_bind_null(stmt: Ptr, i: number): number;
  sqlite3_bind_int(stmt: Ptr, i: number, v: number): number;
  sqlite3_bind_int64(stmt: Ptr, i: number, v: bigint): number;
  sqlite3_bind_double(stmt: Ptr, i: number, v: number): number;
  sqlite3_bind_text(stmt: Ptr, i: number, text: Ptr, n: number, dtor: number): number;
  sqlite3_bind_blob(stmt: Ptr, i: number, blob: Ptr, n: number, dtor: number): number;
  sqlite3_bind_parameter_count(stmt: Ptr): number;
  sqlite3_errcode(db: Ptr): number;
  sqlite3_extended_errcode(db: Ptr): number;
  sqlite3_changes(db: Ptr): number;
}

/** The subset of `sqlite3.capi` we use. */
export interface Capi {
  readonly [constant: `SQLITE_${string}`]: number;
  /** The destructor that frees memory from `wasm.alloc` once SQLite is done with it. */
  readonly SQLITE_WASM_DEALLOC: number;
  sqlite3_vfs: new (ptr?: Ptr) => Struct;
  sqlite3_io_methods: new (ptr?: Ptr) => Struct;
  sqlite3_file: (new (ptr: Ptr) => Struct) & {
    structInfo: { sizeof: number };
  };
  sqlite3_vfs_find(name: string | null): Ptr;
  sqlite3_open_v2(
    filename: string,
    ppDb: Ptr,
    flags: number,
    vfs: string | null,
  ): number;
  sqlite3_close_v2(db: Ptr): number;
  sqlite3_errmsg(db: Ptr): string;
  sqlite3_errstr(code: number): string;
  sqlite3_prepare_v2(
    db: Ptr,
    /** A string, or a pointer to UTF-8 text in the heap (needed for `pzTail`). */
    sql: string | Ptr,
    nByte: number,
    ppStmt: Ptr,
    pzTail: Ptr | null,
  ): number;
  sqlite3_column_name(stmt: Ptr, i: number): string;
  sqlite3_column_decltype(stmt: Ptr, i: number): string | null;
  sqlite3_bind_parameter_index(stmt: Ptr, name: string): number;
  sqlite3_db_config(db: Ptr, op: number, ...args: number[]): number;
  sqlite3_libversion(): string;
  sqlite3_js_db_export(db: Ptr): Uint8Array;
}

/** The subset of `sqlite3.wasm` we use. */
export interface Wasm {
  readonly exports: RawExports;
  heap8u(): Uint8Array;
  alloc(n: number): Ptr;
  dealloc(ptr: Ptr): void;
  peekPtr(ptr: Ptr): Ptr;
  poke32(ptr: Ptr, value: number): void;
  poke64(ptr: Ptr, value: bigint): void;
  poke(ptr: Ptr, value: number | bigint, type: string): void;
  cstrToJs(ptr: Ptr): string;
  cstrncpy(dest: Ptr, src: Ptr, n: number): number;
  allocCString(s: string): Ptr;
  pstack: {
    pointer: Ptr;
    restore(p: Ptr): void;
    allocPtr(): Ptr;
  };
}

/** The loaded SQLite module, narrowed to what we use. */
export interface Sqlite {
  readonly capi: Capi;
  readonly wasm: Wasm;
  readonly vfs: {
    installVfs(opt: {
      io?: { struct: Struct; methods: Record<string, unknown> };
      vfs?: {
        struct: Struct;
        methods: Record<string, unknown>;
        name?: string;
        asDefault?: boolean;
      };
    }): unknown;
  };
  readonly version: { libVersion: string };
}

let loading: Promise<Sqlite> | undefined;
let memoryLimit: number | undefined;
let compiled: WebAssembly.Module | undefined;
let compiling: Promise<WebAssembly.Module> | undefined;

/**
 * The engine's WebAssembly module, compiled once in this process, for the
 * pool to share with its workers (each then instantiates it instead of
 * compiling its own). In the compiled binary the file is an embedded asset
 * at Bun's file-system root; otherwise it sits beside the package's module.
 *
 * @returns the compiled module
 */
export function compileSqlite(): Promise<WebAssembly.Module> {
  compiling ??= (async () => {
    const here = decodeURI(import.meta.url);
    const root = /^file:\/\/(.*?[/\\](?:\$bunfs|~BUN)[/\\]root[/\\])/.exec(here)?.[1];
    const file = root !== undefined
      ? `${root}sqlite3.wasm`
      : fileURLToPath(new URL("sqlite3.wasm", import.meta.resolve("@sqlite.org/sqlite-wasm")));
    return await WebAssembly.compile(fs.readFileSync(file));
  })();
  return compiling;
}

/**
 * Makes this thread's engine (a pool worker's) instantiate `module`, compiled
 * by the main thread, instead of compiling its own. Takes effect only
 * before the engine is loaded.
 *
 * @param module the compiled module
 */
export function useCompiledSqlite(module: WebAssembly.Module): void {
  if (loading === undefined) compiled = module;
}

/** WebAssembly pages of 64 KiB. */
const PAGE = 65536;

/**
 * Caps the WebAssembly memory of this thread's engine (a pool worker's):
 * SQLite's heap lives in it, so an allocation past the cap fails as
 * SQLITE_NOMEM ("out of memory") for that statement, not for the process.
 * Takes effect only before the engine is loaded.
 *
 * @param bytes the most bytes the memory may grow to
 * @returns false when the engine is loaded already (the cap is not set)
 */
export function limitSqliteMemory(bytes: number): boolean {
  if (loading !== undefined) return false;
  memoryLimit = bytes;
  return true;
}

/**
 * The SQLite module, loaded on first use and shared by every caller.
 *
 * @returns the initialised module
 */
export function loadSqlite(): Promise<Sqlite> {
  // The engine's own build grows its memory up to 2 GB; a capped one starts
  // at the build's 8 MB and stops at the cap.
  const module = compiled;
  const options = {
    ...(memoryLimit === undefined ? {} : {
      wasmMemory: new WebAssembly.Memory({
        initial: 128,
        maximum: Math.max(256, Math.min(32768, Math.floor(memoryLimit / PAGE))),
      }),
    }),
    ...(module === undefined ? {} : {
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ): object {
        void WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
        return {};
      },
    }),
  };
  loading ??= (sqlite3InitModule as (o: object) => Promise<unknown>)(options).then((s) =>
    s as unknown as Sqlite
  );
  return loading;
}

/**
 * Bytes of WebAssembly memory this thread's engine has now (it grows and
 * never shrinks), or 0 when it is not loaded.
 *
 * @returns the bytes
 */
export async function sqliteMemoryBytes(): Promise<number> {
  if (loading === undefined) return 0;
  return (await loading).wasm.heap8u().byteLength;
}

/**
 * Whether the module has been asked for in this process: the diff of two
 * identical files never starts it (tests check that).
 */
export function sqliteStarted(): boolean {
  return loading !== undefined;
}

/**
 * The real PostgreSQL parser (libpg-query, PostgreSQL 18's own grammar
 * compiled to WebAssembly), loaded on first use.
 *
 * The package's entry point starts loading its 1.7 MB WASM file as soon as it
 * is imported, and finds it next to its own script, which a `bun build
 * --compile` binary does not have. So this file imports the Emscripten
 * factory directly and hands it the bytes: from the installed package when
 * it resolves (Deno, Bun, Node), else from the asset embedded next to the
 * bundle (`deno task build` embeds it Brotli-compressed as
 * `/$bunfs/root/libpg-query.wasm.br`, tools/build.ts).
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";

/** The part of the Emscripten module we call. */
interface PgQueryWasm {
  _malloc(n: number): number;
  _free(ptr: number): void;
  _wasm_parse_query_raw(query: number): number;
  _wasm_free_parse_result(result: number): void;
  lengthBytesUTF8(s: string): number;
  stringToUTF8(s: string, ptr: number, max: number): void;
  UTF8ToString(ptr: number): string;
  getValue(ptr: number, type: string): number;
}

type Factory = (options: { wasmBinary: Uint8Array }) => Promise<PgQueryWasm>;

/** A statement of libpg-query's parse result (protobuf JSON: `{ SelectStmt: {...} }`). */
export interface PgRawStmt {
  readonly stmt?: Record<string, unknown>;
  readonly stmt_location?: number;
  readonly stmt_len?: number;
}

/** A syntax error from PostgreSQL's parser, with its 0-based offset in the text. */
export class PgSyntaxError extends Error {
  /** 0-based character offset of the error. */
  readonly position: number;
  /**
   * @param message PostgreSQL's message
   * @param position 0-based offset
   */
  constructor(message: string, position: number) {
    super(message);
    this.name = "PgSyntaxError";
    this.position = position;
  }
}

const WASM = "libpg-query.wasm";

function wasmBytes(): Uint8Array {
  const candidates: URL[] = [];
  try {
    candidates.push(new URL(import.meta.resolve(`libpg-query/wasm/${WASM}`)));
  } catch {
    // not resolvable: inside the compiled binary
  }
  candidates.push(new URL(`./${WASM}`, import.meta.url));
  for (const url of candidates) {
    if (url.protocol === "file:" && existsSync(url)) return readFileSync(url);
  }
  // The binary embeds it Brotli-compressed (tools/build.ts).
  const compressed = new URL(`./${WASM}.br`, import.meta.url);
  if (compressed.protocol === "file:" && existsSync(compressed)) {
    return brotliDecompressSync(readFileSync(compressed));
  }
  candidates.push(compressed);
  throw new Error(
    `Cannot find ${WASM} (looked at ${candidates.map((u) => u.href).join(", ")}): ` +
      "run npm ci, or build the binary with deno task build",
  );
}

let loading: Promise<PgQueryWasm> | undefined;

/**
 * Whether this process has started loading the parser (tests check that a
 * run over another dialect never does).
 *
 * @returns true once {@link loadPgQuery} was called
 */
export function pgQueryRequested(): boolean {
  return loading !== undefined;
}

/**
 * Loads the parser once per process.
 *
 * @returns the WASM module
 */
export function loadPgQuery(): Promise<PgQueryWasm> {
  loading ??= import("libpg-query/wasm/libpg-query.js").then((m) => {
    const factory = ((m as { default?: unknown }).default ?? m) as Factory;
    return factory({ wasmBinary: wasmBytes() });
  });
  return loading;
}

/**
 * Parses SQL text with PostgreSQL's grammar (raw parse: no catalog lookup).
 *
 * @param wasm the loaded module
 * @param sql the text
 * @returns the statements
 * @throws PgSyntaxError when PostgreSQL would reject the text
 */
export function pgParse(wasm: PgQueryWasm, sql: string): PgRawStmt[] {
  const len = wasm.lengthBytesUTF8(sql) + 1;
  const queryPtr = wasm._malloc(len);
  let result = 0;
  try {
    wasm.stringToUTF8(sql, queryPtr, len);
    result = wasm._wasm_parse_query_raw(queryPtr);
    if (!result) throw new Error("libpg-query: out of memory");
    const tree = wasm.getValue(result, "i32");
    const error = wasm.getValue(result + 8, "i32");
    if (error) {
      const message = wasm.UTF8ToString(wasm.getValue(error, "i32"));
      const cursor = wasm.getValue(error + 16, "i32");
      // The cursor counts bytes of UTF-8, from 1.
      const byte = Math.max(0, cursor - 1);
      const position = new TextDecoder().decode(new TextEncoder().encode(sql).slice(0, byte))
        .length;
      throw new PgSyntaxError(message, position);
    }
    if (!tree) return [];
    const parsed = JSON.parse(wasm.UTF8ToString(tree)) as { stmts?: PgRawStmt[] };
    return parsed.stmts ?? [];
  } finally {
    wasm._free(queryPtr);
    if (result) wasm._wasm_free_parse_result(result);
  }
}

/**
 * SQLite's own damaged test databases, read from a copy of SQLite's source
 * tree at test time (tests/system_packages.ts `sqliteSource`: Debian's
 * source package of sqlite3 holds the whole tree, test suite included).
 * Nothing of it is kept in this repository.
 *
 * SQLite's test suite writes damaged database files as `.open --hexdb` /
 * `decode_hexdb` dumps (the text of its `dbtotxt` tool): `| size N
 * pagesize P filename F`, then `| page N offset O` and `|  offset: 16 hex
 * bytes  text` lines for the bytes that are not zero, then usually `| end
 * F`. Most were found by SQLite's fuzzers (dbsqlfuzz, OSS-Fuzz); each
 * makes some statement of SQLite's own tests fail as "database disk image
 * is malformed", or exercises a damaged b-tree, overflow chain, freelist,
 * or FTS3/FTS5/R-Tree shadow table. Every dump of every test file that
 * holds one is read (test/corruptL.test, test/fts3corrupt4.test,
 * ext/fts5/test/fts5corrupt3.test, ext/rtree/rtreefuzz001.test, ...).
 *
 * SQLite is in the public domain; its test files say so ("The author
 * disclaims copyright to this source code. In place of a legal notice, here
 * is a blessing: May you do good and not evil. May you find forgiveness for
 * yourself and forgive others. May you share freely, never taking more than
 * you give.").
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** One decoded dump: the test file it comes from, its `filename`, its bytes. */
export interface SqliteDump {
  /** The test file, relative to the source tree (`test/corruptL.test`). */
  readonly file: string;
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * Decodes the dumps of a file's text as SQLite's `decode_hexdb` (test1.c)
 * and the shell's `.open --hexdb` do: the size rounded up to whole pages,
 * each line of 16 bytes written where it fits; a dump ends at `| end`, at
 * the next `| size` line or at the end of the text.
 *
 * @param text the dumps, one after another, with any text between
 * @returns each dump's name (its `filename`) and bytes
 */
export function decodeHexdb(text: string): { name: string; bytes: Uint8Array }[] {
  const out: { name: string; bytes: Uint8Array }[] = [];
  let bytes: Uint8Array | null = null;
  let name = "";
  let base = 0;
  const close = () => {
    if (bytes !== null) out.push({ name, bytes });
    bytes = null;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const size = /^\|\s*size (\d+) pagesize (\d+)(?: filename (\S+))?/.exec(line);
    if (size !== null) {
      close();
      const pageSize = Number(size[2]);
      const n = Math.ceil(Number(size[1]) / pageSize) * pageSize;
      bytes = new Uint8Array(n);
      name = size[3] ?? `dump${out.length + 1}.db`;
      base = 0;
      continue;
    }
    if (bytes === null) continue;
    const page = /^\|\s*page (\d+) offset (\d+)/.exec(line);
    if (page !== null) {
      base = Number(page[2]);
      continue;
    }
    if (/^\|\s*end\b/.test(line)) {
      close();
      continue;
    }
    const data = /^\|\s*(\d+):((?:\s+[0-9a-fA-F]{1,2}){16})/.exec(line);
    if (data === null) continue;
    const at = base + Number(data[1]);
    const b: Uint8Array = bytes;
    if (at + 16 > b.length) continue;
    data[2]!.trim().split(/\s+/).forEach((h, i) => void (b[at + i] = parseInt(h, 16)));
  }
  close();
  return out;
}

/** The `.test` files under `dir`, recursively, in name order. */
function testFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(root, rel));
    else if (e.name.endsWith(".test")) out.push(rel);
  }
  return out.sort();
}

/**
 * The test files of a SQLite source tree that hold damaged databases
 * (`.open --hexdb` or `decode_hexdb`), relative to it.
 *
 * @param root the source tree (holding test/ and ext/)
 * @returns the files, in name order
 */
export function dumpFiles(root: string): string[] {
  return ["test", "ext"].flatMap((d) => testFiles(root, d)).filter((f) =>
    /\.open\s+--hexdb|decode_hexdb/.test(fs.readFileSync(path.join(root, f), "utf8"))
  );
}

/**
 * Every dump of one test file.
 *
 * @param root the source tree
 * @param file a test file, relative to it
 * @returns its dumps
 */
export function dumpsOf(root: string, file: string): SqliteDump[] {
  return decodeHexdb(fs.readFileSync(path.join(root, file), "utf8"))
    .map((d) => ({ file, ...d }));
}

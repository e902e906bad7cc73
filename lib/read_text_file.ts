/**
 * Reading the text files a user names (cases files, run files, diff
 * documents, selector files) without hanging on a FIFO or a device, and
 * without tripping over a byte-order mark.
 *
 * @module
 */
import * as fs from "node:fs";

/**
 * What a path is when it is neither a regular file nor a folder, in words
 * ("a FIFO (named pipe)"), or undefined for a regular file or a folder.
 * Opening a FIFO for reading waits for a writer, forever if none comes, so
 * every input is checked with this before it is opened.
 *
 * @param stat the path's `fs.statSync` result (symlinks followed)
 * @returns the kind of special file, or undefined
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import { specialFileKind } from "./read_text_file.ts";
 * specialFileKind(fs.statSync("deno.json")); // undefined
 * ```
 */
export function specialFileKind(stat: fs.Stats): string | undefined {
  if (stat.isFile() || stat.isDirectory()) return undefined;
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  return "not a regular file";
}

/**
 * The error {@link readTextFile} throws for a special file; its `code` is
 * `"ENOTREG"`, beside Node's `ENOENT`, `EISDIR` and the rest.
 *
 * @param path the path
 * @param kind what {@link specialFileKind} said
 * @returns the error, with a message that says what to pass instead
 */
export function specialFileError(
  path: string,
  kind: string,
): Error & { code: string; path: string } {
  const message = kind === "not a regular file"
    ? "it is not a regular file; pass a regular file"
    : `it is ${kind}, not a regular file; save its content to a file and pass that`;
  return Object.assign(new Error(message), { code: "ENOTREG", path });
}

/**
 * Reads a UTF-8 text file, refusing FIFOs, sockets and devices before
 * opening them (with the `ENOTREG` error of {@link specialFileError}) and
 * dropping a leading byte-order mark.
 *
 * @param path the file
 * @returns its text
 * @throws the `node:fs` error (`ENOENT`, `EISDIR`, `EACCES`, ...) or `ENOTREG`
 * @example
 * ```ts
 * import { readTextFile } from "./read_text_file.ts";
 * (await readTextFile("deno.json")).startsWith("{"); // true
 * ```
 */
export async function readTextFile(path: string): Promise<string> {
  const kind = specialFileKind(await fs.promises.stat(path));
  if (kind !== undefined) throw specialFileError(path, kind);
  const text = await fs.promises.readFile(path, "utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

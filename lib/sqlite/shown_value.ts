/**
 * Long values shown, not dumped: what text output, reports and run files
 * print for a TEXT or BLOB too long to read, its start, its size and the
 * start of its SHA-256, so that a FAIL line stays one line and a 10 MB BLOB
 * costs a few hundred bytes to show, not a gigabyte of hex.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { bytesHex } from "./value.ts";

/**
 * A BLOB longer than this many bytes is shown by its first bytes, its size and a hash.
 *
 * @example
 * ```ts
 * import { SHOWN_BLOB_BYTES } from "./shown_value.ts";
 * SHOWN_BLOB_BYTES; // 64
 * ```
 */
export const SHOWN_BLOB_BYTES = 64;

/**
 * A TEXT longer than this many characters is shown by its start, its length and a hash.
 *
 * @example
 * ```ts
 * import { SHOWN_TEXT_CHARS } from "./shown_value.ts";
 * SHOWN_TEXT_CHARS; // 1000
 * ```
 */
export const SHOWN_TEXT_CHARS = 1000;

/**
 * The start of a value's SHA-256 (12 hex digits), by which long values are
 * told apart when only their start is shown.
 *
 * @param value a BLOB, or text (hashed as UTF-8)
 * @returns 12 hex digits
 * @example
 * ```ts
 * import { shortHash } from "./shown_value.ts";
 * shortHash(new Uint8Array(100)); // "cd00e292c597"
 * ```
 */
export function shortHash(value: Uint8Array | string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 12);
}

/**
 * A BLOB as a SQL literal, cut when long: `x'00ff'`, or
 * `x'0000…' (10000000 bytes, sha256 1a2b3c4d5e6f)`.
 *
 * @param bytes the BLOB
 * @returns the text
 * @example
 * ```ts
 * import { shownBlob } from "./shown_value.ts";
 * shownBlob(new Uint8Array([0, 255])); // "x'00ff'"
 * shownBlob(new Uint8Array(100)).endsWith("(100 bytes, sha256 cd00e292c597)"); // true
 * ```
 */
export function shownBlob(bytes: Uint8Array): string {
  if (bytes.byteLength <= SHOWN_BLOB_BYTES) return `x'${bytesHex(bytes)}'`;
  return `x'${bytesHex(bytes.subarray(0, SHOWN_BLOB_BYTES))}…' (${bytes.byteLength} bytes, sha256 ${
    shortHash(bytes)
  })`;
}

/**
 * A TEXT cut when long: its first {@link SHOWN_TEXT_CHARS} characters,
 * then `… (N characters, sha256 …)`.
 *
 * @param text the text
 * @returns the text, or its start and what was cut
 * @example
 * ```ts
 * import { shownText } from "./shown_value.ts";
 * shownText("short"); // "short"
 * shownText("y".repeat(5000)).endsWith("… (5000 characters, sha256 3c45db29c8ef)"); // true
 * ```
 */
export function shownText(text: string): string {
  if (text.length <= SHOWN_TEXT_CHARS) return text;
  return `${text.slice(0, SHOWN_TEXT_CHARS)}… (${text.length} characters, sha256 ${
    shortHash(text)
  })`;
}

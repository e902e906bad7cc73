/**
 * The 100-byte header at the start of every SQLite database file, read and
 * checked as SQLite checks it before it reads a page (btree.c lockBtree).
 *
 * @module
 */

/** Text encodings by their header number. */
export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

const ENCODINGS: Record<number, TextEncoding> = { 1: "utf-8", 2: "utf-16le", 3: "utf-16be" };

/** The offset of the lock-byte page's first byte (SQLite's PENDING_BYTE). */
const PENDING_BYTE = 0x40000000;

/** What a reader needs of a database's header. */
export interface FileHeader {
  readonly pageSize: number;
  /** Bytes SQLite keeps at the end of each page for extensions (checksums, encryption). */
  readonly reserved: number;
  /** The bytes of a page that hold b-tree content: the page size less the reserved bytes. */
  readonly usable: number;
  /** 2 when the file is in WAL mode (write and read versions). */
  readonly fileFormat: number;
  /** The database size the header gives, or 0 when it is not valid (see {@link readHeader}). */
  readonly headerPages: number;
  readonly freelistTrunk: number;
  readonly freelistCount: number;
  readonly schemaCookie: number;
  readonly schemaFormat: number;
  /** The encoding, or null when the file has no schema yet (header says 0). */
  readonly encoding: TextEncoding | null;
  /** The encoding's number as the header holds it (0 to 3 in a sound file). */
  readonly encodingNumber: number;
  /** The largest root page when auto_vacuum is on (full or incremental), else 0. */
  readonly autoVacuumRoot: number;
  readonly incrementalVacuum: boolean;
  readonly userVersion: number;
  readonly applicationId: number;
}

/** A header SQLite would not read: why, in a few words. */
export class HeaderError extends Error {}

/**
 * Reads a database header.
 *
 * @param bytes at least the first 100 bytes of the file (or of its page 1 in a -wal)
 * @returns the header
 * @throws {HeaderError} when SQLite would refuse it: not the SQLite magic, a
 * page size that is not a power of two from 512 to 65536, a usable size
 * under 480 bytes, payload fractions other than 64/32/32, or a read version
 * SQLite does not know
 * @example
 * ```ts
 * import * as fs from "node:fs";
 * import { readHeader } from "./header.ts";
 * const bytes = fs.readFileSync("examples/chinook/Chinook_Sqlite.sqlite").subarray(0, 100);
 * readHeader(bytes).pageSize; // 4096
 * ```
 */
export function readHeader(bytes: Uint8Array): FileHeader {
  if (bytes.length < 100) throw new HeaderError("shorter than the 100-byte header");
  const magic = "SQLite format 3\0";
  for (let i = 0; i < 16; i++) {
    if (bytes[i] !== magic.charCodeAt(i)) throw new HeaderError("not the SQLite magic string");
  }
  const u32 = (at: number): number =>
    ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
  const raw = (bytes[16]! << 8) | bytes[17]!;
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) {
    throw new HeaderError(`page size ${raw} is not a power of two from 512 to 65536`);
  }
  const reserved = bytes[20]!;
  const usable = pageSize - reserved;
  if (usable < 480) throw new HeaderError(`${usable} usable bytes a page, under 480`);
  if (bytes[21] !== 64 || bytes[22] !== 32 || bytes[23] !== 32) {
    throw new HeaderError("payload fractions are not 64, 32 and 32");
  }
  if (bytes[19]! > 2) throw new HeaderError(`read version ${bytes[19]} is not 1 or 2`);
  const changes = u32(24);
  const inHeader = u32(28);
  // SQLite reads the two low bits (prepare.c): 0 then means UTF-8.
  const encoding = u32(56);
  const text = encoding === 0 ? null : ENCODINGS[encoding & 3] ?? "utf-8";
  return {
    pageSize,
    reserved,
    usable,
    fileFormat: bytes[19]!,
    // Valid when the change counter matches "version valid for" (3.7.0 on).
    headerPages: inHeader !== 0 && changes === u32(92) ? inHeader : 0,
    freelistTrunk: u32(32),
    freelistCount: u32(36),
    schemaCookie: u32(40),
    schemaFormat: u32(44),
    encoding: text,
    encodingNumber: encoding,
    autoVacuumRoot: u32(52),
    incrementalVacuum: u32(64) !== 0,
    userVersion: u32(60),
    applicationId: u32(68),
  };
}

/**
 * The lock-byte page of a file with pages of `pageSize`: the page holding
 * the bytes SQLite's file locks use, which never holds data (it exists only
 * in files of more than a gigabyte).
 *
 * @param pageSize the page size
 * @returns its page number
 * @example
 * ```ts
 * import { lockBytePage } from "./header.ts";
 * lockBytePage(4096); // 262145
 * ```
 */
export function lockBytePage(pageSize: number): number {
  return Math.floor(PENDING_BYTE / pageSize) + 1;
}

/**
 * The first step of page skipping (page_plan.ts): read both files once, in
 * big chunks, and note which pages differ and each page's b-tree type byte.
 *
 * Why chunks of 4 MiB and not pages: a 225 MB pair took 150 ms in 1 MiB
 * reads and 85 ms in 4 MiB reads (Deno, files in the OS cache), and equal
 * chunks, the common case, are compared with one memcmp. Why asynchronous
 * reads: they run on the runtime's I/O threads, so the scan overlaps the
 * start of the WASM engine on the main thread (2 cores: both are busy).
 * Why the type bytes: with them, walking a b-tree reads its interior pages
 * only, never its leaves (the leaves are 99% of a table's pages).
 *
 * @module
 */
import * as fs from "node:fs";
import { Buffer } from "node:buffer";
import { realPath } from "../sqlite/file_check.ts";

/** One side of the scan. */
export interface ScannedFile {
  readonly fd: number;
  readonly pages: number;
  readonly freelistTrunk: number;
  /** The b-tree page type byte of each page (by page number; 0 for page 0). */
  readonly types: Uint8Array;
}

/** Both files, compared page by page. Close it when done. */
export interface PageScan {
  readonly pageSize: number;
  /** The bytes of a page that hold b-tree content: the page size less the reserved bytes. */
  readonly usable: number;
  readonly before: ScannedFile;
  readonly after: ScannedFile;
  /** 1 for a page (by number) that differs or exists on one side only; page 1 is never marked. */
  readonly dirty: Uint8Array;
  /** The number of pages marked in {@link dirty}. */
  readonly dirtyCount: number;
  /**
   * Null when the whole files were compared. Otherwise only the b-trees with
   * these root pages were (_table_scan.ts): their pages, both sides, and the
   * overflow pages of their clean leaves, a changed overflow page marking
   * its leaf. {@link dirty} and the types say nothing of other pages.
   */
  readonly scope:
    | { readonly before: ReadonlySet<number>; readonly after: ReadonlySet<number> }
    | null;
  close(): void;
}

const CHUNK = 4 * 1024 * 1024;

function walSize(path: string): number {
  try {
    // SQLite looks for the -wal beside the real file, not beside a symlink.
    return fs.statSync(`${realPath(path)}-wal`).size;
  } catch {
    return 0;
  }
}

/** What the scans need of a file's 100-byte header. */
export interface Header {
  readonly pageSize: number;
  readonly reserved: number;
  readonly pages: number;
  readonly freelistTrunk: number;
}

/** An asynchronous positioned read (on the runtime's I/O threads) of a plain fd. */
export function readAt(fd: number, buf: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, buf, 0, length, position, (err, n) => (err === null ? resolve(n) : reject(err)));
  });
}

function header(fd: number): Header | null {
  const size = fs.fstatSync(fd).size;
  if (size < 512) return null;
  const head = Buffer.alloc(100);
  fs.readSync(fd, head, 0, 100, 0);
  if (head.toString("latin1", 0, 16) !== "SQLite format 3\0") return null;
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return null;
  return {
    pageSize,
    reserved: head[20]!,
    pages: Math.floor(size / pageSize),
    freelistTrunk: head.readUInt32BE(32),
  };
}

/** Both files opened for a scan, with their headers. */
export interface OpenPair {
  readonly a: number;
  readonly b: number;
  readonly ha: Header;
  readonly hb: Header;
}

/**
 * Opens two files for a page scan, or returns null when their pages cannot
 * be trusted: a side has a non-empty -wal file (the file on disk is not the
 * whole database), a file is too small to hold a b-tree or is not SQLite,
 * or the page sizes or reserved bytes differ. It never throws: opening the
 * files with SQLite reports what is wrong with them.
 *
 * @param before the before file
 * @param after the after file
 * @returns both files open (the caller closes them), or null
 */
export function openPair(before: string, after: string): OpenPair | null {
  let a: number | null = null;
  let b: number | null = null;
  try {
    if (walSize(before) > 0 || walSize(after) > 0) return null;
    // Opening a FIFO would wait for a writer; SQLite's open reports it.
    if (!fs.statSync(before).isFile() || !fs.statSync(after).isFile()) return null;
    a = fs.openSync(before, "r");
    b = fs.openSync(after, "r");
    const ha = header(a);
    const hb = header(b);
    if (ha !== null && hb !== null && ha.pageSize === hb.pageSize && ha.reserved === hb.reserved) {
      const pair = { a, b, ha, hb };
      a = b = null;
      return pair;
    }
    return null;
  } catch {
    return null;
  } finally {
    if (a !== null) fs.closeSync(a);
    if (b !== null) fs.closeSync(b);
  }
}

/**
 * Scans two whole files for differing pages. Returns null when pages cannot
 * be trusted ({@link openPair}) or a read fails. It never rejects.
 *
 * @param before the before file
 * @param after the after file
 * @param onDiffer called once, as soon as a page other than page 1 is
 * found to differ (or the files differ in length)
 * @returns the scan, with both files kept open for the b-tree walks
 */
export function scanPages(
  before: string,
  after: string,
  onDiffer?: () => void,
): Promise<PageScan | null> {
  return scanPair(before, after, (pair) => compare(pair, onDiffer));
}

/**
 * Opens both files ({@link openPair}) and runs `scan` on them; null when
 * they cannot be trusted or the scan fails, and then both are closed. It
 * never rejects. A scan that succeeds keeps the files open until closed.
 *
 * @param before the before file
 * @param after the after file
 * @param scan what reads them
 * @returns the scan, or null
 */
export async function scanPair(
  before: string,
  after: string,
  scan: (pair: OpenPair) => Promise<PageScan>,
): Promise<PageScan | null> {
  const pair = openPair(before, after);
  if (pair === null) return null;
  let done: PageScan | null = null;
  try {
    done = await scan(pair);
    return done;
  } catch {
    return null;
  } finally {
    if (done === null) {
      fs.closeSync(pair.a);
      fs.closeSync(pair.b);
    }
  }
}

async function compare(
  { a, b, ha, hb }: OpenPair,
  onDiffer: (() => void) | undefined,
): Promise<PageScan> {
  if (ha.pages !== hb.pages) {
    onDiffer?.();
    onDiffer = undefined;
  }
  const size = ha.pageSize;
  const n = Math.max(ha.pages, hb.pages) + 1;
  const dirty = new Uint8Array(n);
  const typesA = new Uint8Array(ha.pages + 1);
  const typesB = new Uint8Array(hb.pages + 1);
  const chunkPages = Math.max(1, Math.floor(CHUNK / size));
  const bytes = chunkPages * size;
  // Two buffers per side: the next chunk is read while this one is compared.
  const bufs = [0, 1].map(() => [Buffer.allocUnsafe(bytes), Buffer.allocUnsafe(bytes)] as const);
  const read = async (
    fd: number,
    pages: number,
    buf: Buffer,
    first: number,
  ): Promise<number> => {
    const count = Math.max(0, Math.min(chunkPages, pages - first + 1));
    if (count === 0) return 0;
    const bytesRead = await readAt(fd, buf, count * size, (first - 1) * size);
    if (bytesRead !== count * size) throw new Error(`short read at page ${first}`);
    return count;
  };
  const readBoth = async (i: number, first: number): Promise<[number, number]> => {
    // allSettled: both reads are done before a failure closes the files.
    const [x, y] = await Promise.allSettled([
      read(a, ha.pages, bufs[i]![0], first),
      read(b, hb.pages, bufs[i]![1], first),
    ]);
    if (x.status === "rejected") throw x.reason;
    if (y.status === "rejected") throw y.reason;
    return [x.value, y.value];
  };
  const types = (buf: Buffer, first: number, count: number, out: Uint8Array): void => {
    for (let k = 0; k < count; k++) out[first + k] = buf[k * size + (first + k === 1 ? 100 : 0)]!;
  };
  let dirtyCount = 0;
  let next = readBoth(0, 1);
  for (let first = 1, i = 0; first < n; first += chunkPages, i ^= 1) {
    // A failed read is awaited here before the files are closed.
    const [countA, countB] = await next;
    if (first + chunkPages < n) next = readBoth(i ^ 1, first + chunkPages);
    const [bufA, bufB] = bufs[i]!;
    types(bufA, first, countA, typesA);
    types(bufB, first, countB, typesB);
    const common = Math.min(countA, countB);
    if (common > 0 && bufA.compare(bufB, 0, common * size, 0, common * size) !== 0) {
      for (let k = 0; k < common; k++) {
        const s = k * size;
        if (bufA.compare(bufB, s, s + size, s, s + size) !== 0) {
          dirty[first + k] = 1;
          dirtyCount++;
        }
      }
    }
    for (let k = common; k < Math.max(countA, countB); k++) {
      dirty[first + k] = 1;
      dirtyCount++;
    }
    // Page 1 aside (its header changes with every write).
    if (onDiffer !== undefined && dirtyCount > (dirty[1] === 1 ? 1 : 0)) {
      onDiffer();
      onDiffer = undefined;
    }
  }
  // The header and sqlite_schema's root: the schema is compared in SQL.
  if (dirty[1] === 1) dirtyCount--;
  dirty[1] = 0;
  let open = true;
  return {
    pageSize: size,
    usable: size - ha.reserved,
    before: { fd: a, pages: ha.pages, freelistTrunk: ha.freelistTrunk, types: typesA },
    after: { fd: b, pages: hb.pages, freelistTrunk: hb.freelistTrunk, types: typesB },
    dirty,
    dirtyCount,
    scope: null,
    close: () => {
      if (!open) return;
      open = false;
      fs.closeSync(a);
      fs.closeSync(b);
    },
  };
}

/**
 * Overflow chains: the pages a payload too big for its cell spills into,
 * each holding the number of the next page and then `usable - 4` bytes of
 * the payload. Every chain is checked as it is followed: each page is in
 * the file and claimed once (page_owners.ts: no page shared by two chains,
 * no chain that loops), and the chain has exactly the length the payload
 * needs, its last page pointing nowhere (SQLite's integrity check says
 * "overflow list length is N but should be M" otherwise). A record header
 * too long to lie whole on its page is checked here, once its bytes are in
 * hand.
 *
 * @module
 */
import { type BtreePage, u32 } from "./btree_page.ts";
import { OVERFLOW, type PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { Record } from "./record.ts";

/** The most bytes of a payload its header can take (SQLite's limit, and its size varint). */
const HEADER_BYTES = 98307 + 9;

/**
 * Follows one cell's overflow chain a page at a time.
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { ChainReader } from "./overflow.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * const chain = new ChainReader(src, null);
 * chain instanceof ChainReader; // true
 * src.close();
 * ```
 */
export class ChainReader {
  readonly #src: PageSource;
  readonly #owners: PageOwners | null;
  readonly #page: Uint8Array;
  /** The page read last, and the bytes of the payload it holds (from offset 4). */
  bytes = 0;
  #next = 0;
  #left = 0;
  #pages = 0;
  #from = 0;
  #cell = 0;
  #total = 0;

  /**
   * @param src the file
   * @param owners its page owners (each overflow page is claimed), or null
   */
  constructor(src: PageSource, owners: PageOwners | null) {
    this.#src = src;
    this.#owners = owners;
    this.#page = new Uint8Array(src.pageSize);
  }

  /** The page read last (its payload bytes from offset 4). */
  get page(): Uint8Array {
    return this.#page;
  }

  /**
   * Starts on the chain of `first`, holding the `left` payload bytes after
   * a cell's local part; `from` and `cell` name the cell for messages.
   */
  start(first: number, left: number, from: number, cell: number): void {
    this.#next = first;
    this.#left = left;
    this.#pages = 0;
    this.#from = from;
    this.#cell = cell;
    this.#total = Math.ceil(left / (this.#src.usable - 4));
  }

  /** Reads the next page of the chain; false once the payload is all read (and the chain checked). */
  step(): boolean {
    const src = this.#src;
    if (this.#left === 0) {
      if (this.#next !== 0) {
        throw src.damaged(
          this.#from,
          `cell ${this.#cell}'s overflow chain is longer than the ${this.#total} pages its payload needs`,
        );
      }
      return false;
    }
    const n = this.#next;
    if (n === 0) {
      throw src.damaged(
        this.#from,
        `cell ${this.#cell}'s overflow chain ends after ${this.#pages} of the ${this.#total} pages its payload needs`,
      );
    }
    if (n < 2 || n > src.pages || n === src.lockPage) {
      throw src.damaged(
        this.#from,
        `cell ${this.#cell}'s overflow chain reaches page ${n}, which ${
          n > src.pages ? "is not in the file" : "cannot hold a payload"
        }`,
      );
    }
    this.#owners?.claim(n, OVERFLOW, this.#from);
    src.read(n, this.#page);
    this.#pages++;
    this.#next = u32(this.#page, 0);
    const k = Math.min(src.usable - 4, this.#left);
    this.bytes = k;
    this.#left -= k;
    return true;
  }
}

/**
 * Reads and checks cells' payloads, overflow chains included.
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { BtreePage } from "./btree_page.ts";
 * import { Payloads } from "./overflow.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * const page = new BtreePage(src);
 * const buf = new Uint8Array(src.pageSize);
 * src.read(1, buf);
 * page.parse(1, buf, 0, "table");
 * new Payloads(src, null).payload(page, 0).length > 0; // true: a CREATE statement's row
 * src.close();
 * ```
 */
export class Payloads {
  readonly #src: PageSource;
  readonly #chain: ChainReader;
  readonly #record: Record;

  /**
   * @param src the file
   * @param owners its page owners, or null
   */
  constructor(src: PageSource, owners: PageOwners | null) {
    this.#src = src;
    this.#chain = new ChainReader(src, owners);
    this.#record = new Record(src.header.encoding);
  }

  /**
   * Cell `i`'s whole payload: a view of the page when it does not spill,
   * else a new array of the local part and the chain's bytes.
   *
   * @param page the parsed page
   * @param i the cell
   * @returns the payload
   */
  payload(page: BtreePage, i: number): Uint8Array {
    const start = page.start[i]!;
    const local = page.local[i]!;
    const size = page.payload[i]!;
    if (page.overflow[i] === 0) return page.buf.subarray(start, start + size);
    const out = new Uint8Array(size);
    out.set(page.buf.subarray(start, start + local));
    let at = local;
    const chain = this.#chain;
    chain.start(page.overflow[i]!, size - local, page.number, i + 1);
    while (chain.step()) {
      out.set(chain.page.subarray(4, 4 + chain.bytes), at);
      at += chain.bytes;
    }
    this.#checkHeader(out, size, page.number, i);
    return out;
  }

  /**
   * Follows and checks cell `i`'s chain without keeping its bytes (a cell
   * whose values are not needed, but whose pages must be accounted for).
   *
   * @param page the parsed page
   * @param i the cell
   */
  check(page: BtreePage, i: number): void {
    const size = page.payload[i]!;
    const local = page.local[i]!;
    if (page.overflow[i] === 0) return;
    const chain = this.#chain;
    chain.start(page.overflow[i]!, size - local, page.number, i + 1);
    // The header, when it spills too: its bytes are gathered as the chain is read.
    const start = page.start[i]!;
    const need = Math.min(size, HEADER_BYTES);
    const head = local >= need ? null : new Uint8Array(need);
    if (head !== null) head.set(page.buf.subarray(start, start + local));
    let at = local;
    while (chain.step()) {
      if (head !== null && at < need) {
        const k = Math.min(chain.bytes, need - at);
        head.set(chain.page.subarray(4, 4 + k), at);
        at += k;
      }
    }
    if (head !== null) this.#checkHeader(head, size, page.number, i);
  }

  #checkHeader(bytes: Uint8Array, size: number, n: number, i: number): void {
    const problem = this.#record.parse(bytes, 0, bytes.length, size);
    if (problem !== null) throw this.#src.damaged(n, `cell ${i + 1}: ${problem}`);
  }
}

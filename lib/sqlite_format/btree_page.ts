/**
 * One b-tree page's cells, parsed and checked as they are read: the page's
 * type is the one its tree expects, its cells fit the page (count, cell
 * pointers inside the cell content area, every cell ending on the page), a
 * table page's keys are in order and inside the range its parents give, a
 * payload that spills names an overflow chain of the length its size
 * needs, and every record that lies whole on the page has a sound header
 * (record.ts). Anything else is one {@link SqliteDamageError} naming the
 * file, the page and what is wrong.
 *
 * Rowids are 64-bit: they are kept as their high (signed) and low
 * (unsigned) 32 bits, compared exactly, and read as numbers where that is
 * exact (see {@link BtreePage.rowid}).
 *
 * Nothing is allocated per page or cell: a {@link BtreePage} holds typed
 * arrays sized for the fullest page, reused from page to page.
 *
 * @module
 */
import type { PageSource } from "./page_source.ts";
import { Record } from "./record.ts";

/** The first byte of each kind of b-tree page. */
export const TABLE_LEAF = 0x0d;
export const TABLE_INTERIOR = 0x05;
export const INDEX_LEAF = 0x0a;
export const INDEX_INTERIOR = 0x02;

/** Which kind of b-tree a page belongs to. */
export type TreeKind = "table" | "index";

const TWO_32 = 4294967296;

/** Value sizes of serial types below 12 (reserved 10 and 11: a size no record can match). */
const SIZES = new Int32Array([0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -(2 ** 30), -(2 ** 30)]);

/**
 * The largest payload a cell of a page of `type` keeps whole on the page.
 *
 * @param usable the usable bytes of a page
 * @param type the page's type byte
 * @returns the bytes
 * @example
 * ```ts
 * import { maxLocal, TABLE_LEAF } from "./btree_page.ts";
 * maxLocal(4096, TABLE_LEAF); // 4061
 * ```
 */
export function maxLocal(usable: number, type: number): number {
  return type === TABLE_LEAF ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
}

/**
 * The bytes of a `payload`-byte record that a page of `type` keeps (all of
 * it, or the part before a 4-byte overflow page number).
 *
 * Worked example, usable size U = 4096, a table leaf cell of payload P =
 * 10000 bytes: X = U - 35 = 4061 < P, so it spills; M = (U - 12) * 32 / 255
 * - 23 = 489, K = M + (P - M) % (U - 4) = 489 + 9511 % 4092 = 1816 <= X, so
 * 1816 bytes stay on the leaf, followed by the 4-byte number of the first
 * of ceil((10000 - 1816) / 4092) = 2 overflow pages.
 *
 * @param payload the record's size
 * @param usable the usable bytes of a page
 * @param type the page's type byte
 * @returns the bytes kept on the page
 * @example
 * ```ts
 * import { localPayload, TABLE_LEAF } from "./btree_page.ts";
 * localPayload(10000, 4096, TABLE_LEAF); // 1816
 * ```
 */
export function localPayload(payload: number, usable: number, type: number): number {
  const max = maxLocal(usable, type);
  if (payload <= max) return payload;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((payload - min) % (usable - 4));
  return k <= max ? k : min;
}

/**
 * Rowid bounds a page's keys must lie in: above `lo` and at most `hi`, as
 * 64-bit integers in two halves; `hasLo`/`hasHi` false for an open end.
 */
export interface KeyBounds {
  hasLo: boolean;
  loHi: number;
  loLo: number;
  hasHi: boolean;
  hiHi: number;
  hiLo: number;
}

/** Bounds with both ends open. */
export function openBounds(): KeyBounds {
  return { hasLo: false, loHi: 0, loLo: 0, hasHi: false, hiHi: 0, hiLo: 0 };
}

/** Whether (h1, l1) < (h2, l2) as 64-bit integers. */
export function keyBelow(h1: number, l1: number, h2: number, l2: number): boolean {
  return h1 < h2 || (h1 === h2 && l1 < l2);
}

/**
 * A page's cells, parsed and checked (see the module documentation).
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { BtreePage } from "./btree_page.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * const page = new BtreePage(src);
 * const buf = new Uint8Array(src.pageSize);
 * src.read(1, buf);
 * page.parse(1, buf, 0, "table"); // sqlite_schema's root
 * page.count > 0; // true
 * src.close();
 * ```
 */
export class BtreePage {
  readonly src: PageSource;
  /** The page's number. */
  number = 0;
  /** The buffer holding the page, and where in it the page starts. */
  buf: Uint8Array = new Uint8Array(0);
  base = 0;
  type = 0;
  count = 0;
  /** An interior page's right-most child. */
  right = 0;
  /** Each cell's payload size (index and table leaf cells). */
  readonly payload: Float64Array;
  /** Where each cell's payload starts in `buf`. */
  readonly start: Int32Array;
  /** How many payload bytes each cell keeps on the page. */
  readonly local: Int32Array;
  /** Each cell's first overflow page, or 0. */
  readonly overflow: Uint32Array;
  /** A table page's keys (rowids, or an interior page's dividers), high and low halves. */
  readonly keyHi: Int32Array;
  readonly keyLo: Uint32Array;
  /** An interior page's left child of each cell. */
  readonly child: Uint32Array;
  /** Whether every key of the page is a safe integer (so {@link rowid} is exact). */
  safeKeys = true;
  readonly #record: Record;
  readonly #maxTable: number;
  readonly #maxIndex: number;
  readonly #minLocal: number;

  /** @param src the file the pages come from */
  constructor(src: PageSource) {
    this.src = src;
    // A cell takes at least 4 bytes and its pointer 2: SQLite's MX_CELL.
    const cells = Math.floor((src.pageSize - 8) / 6) + 1;
    this.payload = new Float64Array(cells);
    this.start = new Int32Array(cells);
    this.local = new Int32Array(cells);
    this.overflow = new Uint32Array(cells);
    this.keyHi = new Int32Array(cells);
    this.keyLo = new Uint32Array(cells);
    this.child = new Uint32Array(cells);
    this.#record = new Record(src.header.encoding);
    this.#maxTable = maxLocal(src.usable, TABLE_LEAF);
    this.#maxIndex = maxLocal(src.usable, INDEX_LEAF);
    this.#minLocal = Math.floor(((src.usable - 12) * 32) / 255) - 23;
  }

  /** Whether the page is a leaf. */
  get leaf(): boolean {
    return this.type === TABLE_LEAF || this.type === INDEX_LEAF;
  }

  /** Cell `i`'s rowid (or divider) as a number: exact when {@link safeKeys}. */
  rowid(i: number): number {
    return this.keyHi[i]! * TWO_32 + this.keyLo[i]!;
  }

  /** Cell `i`'s rowid exactly, as a number when it is a safe integer, else a bigint. */
  exactRowid(i: number): number | bigint {
    const v = this.rowid(i);
    if (Number.isSafeInteger(v)) return v;
    return (BigInt(this.keyHi[i]!) << 32n) | BigInt(this.keyLo[i]!);
  }

  /** Whether cell `i`'s payload spills to overflow pages. */
  spills(i: number): boolean {
    return this.overflow[i] !== 0;
  }

  /** The number of overflow pages cell `i`'s payload needs. */
  overflowPages(i: number): number {
    return Math.ceil((this.payload[i]! - this.local[i]!) / (this.src.usable - 4));
  }

  /**
   * Parses page `n`, which lies at `base` of `buf`, as a page of a `kind`
   * b-tree, and checks it.
   *
   * @param n the page number
   * @param buf the bytes holding it
   * @param base where the page starts in `buf`
   * @param kind the tree it belongs to
   * @param bounds for a table page, the range its keys must lie in
   * @param leaf whether it must be a leaf (true), an interior page (false), or either
   * @throws {SqliteDamageError} when the page is not what it should be
   */
  parse(
    n: number,
    buf: Uint8Array,
    base: number,
    kind: TreeKind,
    bounds: KeyBounds | null = null,
    leaf: boolean | null = null,
  ): void {
    this.number = n;
    this.buf = buf;
    this.base = base;
    const h = base + (n === 1 ? 100 : 0);
    const type = buf[h]!;
    this.type = type;
    const table = type === TABLE_LEAF || type === TABLE_INTERIOR;
    const index = type === INDEX_LEAF || type === INDEX_INTERIOR;
    if (!(table || index)) {
      throw this.#damage(`its type byte ${type} is no b-tree page (a ${kind} page was expected)`);
    }
    if (table !== (kind === "table")) {
      throw this.#damage(
        `it is ${table ? "a table" : "an index"} page in ${
          kind === "table" ? "a table" : "an index"
        } b-tree`,
      );
    }
    const isLeaf = type === TABLE_LEAF || type === INDEX_LEAF;
    if (leaf !== null && leaf !== isLeaf) {
      throw this.#damage(
        isLeaf
          ? "it is a leaf where its tree's other leaves are deeper"
          : "it is an interior page where its tree's other pages are leaves",
      );
    }
    const count = (buf[h + 3]! << 8) | buf[h + 4]!;
    this.count = count;
    const usable = this.src.usable;
    const header = (h - base) + (isLeaf ? 8 : 12);
    const first = header + 2 * count;
    if (count >= this.payload.length || first > usable) {
      throw this.#damage(`its cell count ${count} does not fit the page`);
    }
    const rawTop = (buf[h + 5]! << 8) | buf[h + 6]!;
    const top = rawTop === 0 ? 65536 : rawTop;
    if (top < first || top > usable) {
      throw this.#damage(
        `its cell content area starts at ${top}, outside ${first}..${usable}`,
      );
    }
    if (!isLeaf) {
      this.right = u32(buf, h + 8);
      this.#checkChild(this.right, -1);
    }
    if (type === TABLE_LEAF) this.#tableLeaf(h, count, top, bounds);
    else if (type === TABLE_INTERIOR) this.#tableInterior(h, count, top, bounds);
    else this.#indexCells(h, count, top, type === INDEX_LEAF);
  }

  /**
   * Makes this a page of one index interior cell, copied out of page `n`:
   * its local payload bytes are `bytes` (from 0).
   *
   * @param n the interior page the cell comes from
   * @param bytes the cell's local payload
   * @param payload its payload size
   * @param overflow its first overflow page, or 0
   */
  single(n: number, bytes: Uint8Array, payload: number, overflow: number): void {
    this.number = n;
    this.buf = bytes;
    this.base = 0;
    this.type = INDEX_INTERIOR;
    this.count = 1;
    this.payload[0] = payload;
    this.start[0] = 0;
    this.local[0] = bytes.length;
    this.overflow[0] = overflow;
  }

  /**
   * The fast check of a table leaf whose cells are not needed (the other
   * side holds the same page): true when page `n` is a sound table leaf
   * inside `bounds` whose every cell lies whole on the page, its record
   * header sound: {@link parse}'s fast path, keeping only the first and
   * last keys ({@link firstHi} ...). False means "look closer": parse it,
   * which reports the damage, or finds cells that spill.
   *
   * @param n the page number
   * @param buf the bytes holding it
   * @param base where the page starts in `buf`
   * @param bounds the range its keys must lie in
   * @returns whether it is sound and spills nothing
   */
  soundLeaf(n: number, buf: Uint8Array, base: number, bounds: KeyBounds): boolean {
    const h = base + (n === 1 ? 100 : 0);
    if (buf[h] !== TABLE_LEAF) return false;
    const count = (buf[h + 3]! << 8) | buf[h + 4]!;
    const usable = this.src.usable;
    const first = (h - base) + 8 + 2 * count;
    if (count >= this.payload.length || first > usable) return false;
    const rawTop = (buf[h + 5]! << 8) | buf[h + 6]!;
    const top = rawTop === 0 ? 65536 : rawTop;
    if (top < first || top > usable) return false;
    this.number = n;
    this.buf = buf;
    this.base = base;
    this.type = TABLE_LEAF;
    this.count = count;
    return this.#fastTableLeaf(h, count, top, bounds, false);
  }

  /** The first and last keys a {@link soundLeaf} check found. */
  firstHi = 0;
  firstLo = 0;
  lastHi = 0;
  lastLo = 0;

  #damage(problem: string): Error {
    return this.src.damaged(this.number, problem);
  }

  #checkChild(child: number, cell: number): void {
    if (child < 2 || child > this.src.pages || child === this.src.lockPage) {
      const which = cell < 0 ? "its right-most child" : `cell ${cell + 1}'s child`;
      throw this.#damage(
        `${which} is page ${child}, which ${
          child > this.src.pages ? "is past the end of the file" : "cannot be a b-tree page"
        }`,
      );
    }
  }

  #pointer(h: number, i: number, top: number): number {
    const b = this.buf;
    const at = h + (this.leaf ? 8 : 12) + 2 * i;
    const ptr = (b[at]! << 8) | b[at + 1]!;
    if (ptr < top || ptr > this.src.usable - 4) {
      throw this.#damage(
        `cell ${i + 1} starts at ${ptr}, outside the cell content area ${top}..${
          this.src.usable - 4
        }`,
      );
    }
    return this.base + ptr;
  }

  /**
   * The common table leaf, parsed fast: every cell whole on the page, sizes
   * of at most two varint bytes, rowids of at most seven, keys as numbers.
   * False: the careful parse (below) looks again, and names any damage.
   */
  #fastTableLeaf(
    h: number,
    count: number,
    top: number,
    bounds: KeyBounds | null,
    keep = true,
  ): boolean {
    const buf = this.buf;
    const base = this.base;
    const end = base + this.src.usable;
    const max = this.#maxTable;
    const lastPtr = this.src.usable - 4;
    let lo = -Infinity;
    let hi = Infinity;
    if (bounds !== null) {
      if (bounds.hasLo) lo = bounds.loHi * TWO_32 + bounds.loLo;
      if (bounds.hasHi) hi = bounds.hiHi * TWO_32 + bounds.hiLo;
      if (
        !(Number.isSafeInteger(lo) || lo === -Infinity) ||
        !(Number.isSafeInteger(hi) || hi === Infinity)
      ) {
        return false;
      }
    }
    const { payload, start, local, overflow, keyHi, keyLo } = this;
    let prev = lo;
    let firstKey = 0;
    const ptrs = h + 8;
    for (let i = 0; i < count; i++) {
      const ptr = (buf[ptrs + 2 * i]! << 8) | buf[ptrs + 2 * i + 1]!;
      if (ptr < top || ptr > lastPtr) return false;
      let p = base + ptr;
      let x = buf[p++]!;
      let size = x;
      if (x >= 0x80) {
        x = buf[p++]!;
        if (x >= 0x80) return false;
        size = ((size & 0x7f) << 7) | x;
      }
      if (size > max) return false;
      x = buf[p++]!;
      let v = x & 0x7f;
      let k = 1;
      while (x >= 0x80) {
        if (k === 7) return false;
        x = buf[p++]!;
        v = v * 128 + (x & 0x7f);
        k++;
      }
      if (v <= prev) return false;
      if (i === 0) firstKey = v;
      prev = v;
      const hend = p + buf[p]!;
      if (p + size > end || buf[p]! >= 0x80 || hend === p || hend > p + size) return false;
      let q = p + 1;
      let sum = hend - p;
      while (q < hend) {
        let t = buf[q++]!;
        if (t >= 0x80) {
          const y = buf[q++]!;
          if (y >= 0x80) return false;
          t = ((t & 0x7f) << 7) | y;
        }
        sum += t >= 12 ? (t - 12) >> 1 : SIZES[t]!;
      }
      if (q !== hend || sum !== size) return false;
      if (!keep) continue;
      keyHi[i] = v < TWO_32 ? 0 : Math.floor(v / TWO_32);
      keyLo[i] = v >>> 0;
      payload[i] = size;
      start[i] = p;
      local[i] = size;
      overflow[i] = 0;
    }
    if (count > 0 && prev > hi) return false;
    if (!keep && count > 0) {
      this.firstHi = Math.floor(firstKey / TWO_32);
      this.firstLo = firstKey >>> 0;
      this.lastHi = Math.floor(prev / TWO_32);
      this.lastLo = prev >>> 0;
    }
    this.safeKeys = true;
    return true;
  }

  #tableLeaf(h: number, count: number, top: number, bounds: KeyBounds | null): void {
    if (this.#fastTableLeaf(h, count, top, bounds)) return;
    const b = this.buf;
    const end = this.base + this.src.usable;
    const max = this.#maxTable;
    const { payload, start, local, overflow, keyHi, keyLo } = this;
    let safe = true;
    let ph = 0;
    let pl = 0;
    let any = false;
    if (bounds !== null && bounds.hasLo) {
      ph = bounds.loHi;
      pl = bounds.loLo;
      any = true;
    }
    for (let i = 0; i < count; i++) {
      let p = this.#pointer(h, i, top);
      // The payload size.
      let x = b[p++]!;
      let size = x & 0x7f;
      if (x >= 0x80) {
        [size, p] = varint(b, p - 1);
        if (size > 0x7fffffff) {
          throw this.#damage(`cell ${i + 1}'s payload size ${size} is larger than any record`);
        }
      }
      // The rowid: a varint of up to 9 bytes, kept in two 32-bit halves.
      x = b[p]!;
      let hi: number;
      let lo: number;
      if (x < 0x80) {
        hi = 0;
        lo = x;
        p++;
      } else {
        let v = 0;
        let k = 0;
        while (k < 7) {
          x = b[p + k]!;
          v = v * 128 + (x & 0x7f);
          k++;
          if (x < 0x80) break;
        }
        if (x < 0x80) {
          hi = Math.floor(v / TWO_32);
          lo = v >>> 0;
          p += k;
        } else {
          [hi, lo, p] = bigVarint(b, p);
          if (hi >= 0x200000 || hi < -0x200000) safe = false;
        }
      }
      if (p > end) throw this.#damage(`cell ${i + 1} runs past the end of the page`);
      if (any && !keyBelow(ph, pl, hi, lo)) {
        throw this.#damage(
          i === 0
            ? `rowid ${show(hi, lo)} of cell 1 is not above ${
              show(ph, pl)
            }, the key before the page`
            : `rowid ${show(hi, lo)} of cell ${i + 1} is not above rowid ${
              show(ph, pl)
            } of cell ${i}`,
        );
      }
      ph = hi;
      pl = lo;
      any = true;
      keyHi[i] = hi;
      keyLo[i] = lo;
      payload[i] = size;
      start[i] = p;
      if (size <= max) {
        if (p + size > end) {
          throw this.#damage(
            `cell ${i + 1}'s record of ${size} bytes runs past the end of the page`,
          );
        }
        local[i] = size;
        overflow[i] = 0;
        const bad = recordCheck(b, p, size, size);
        if (bad !== 0) this.#recordDamage(i, p, size, size);
      } else {
        this.#spill(i, p, size, TABLE_LEAF, end);
      }
    }
    if (
      bounds !== null && bounds.hasHi && count > 0 && keyBelow(bounds.hiHi, bounds.hiLo, ph, pl)
    ) {
      throw this.#damage(
        `rowid ${show(ph, pl)} of cell ${count} is above ${
          show(bounds.hiHi, bounds.hiLo)
        }, the key after the page`,
      );
    }
    this.safeKeys = safe;
  }

  #tableInterior(h: number, count: number, top: number, bounds: KeyBounds | null): void {
    const b = this.buf;
    const end = this.base + this.src.usable;
    const { keyHi, keyLo, child } = this;
    let safe = true;
    let ph = 0;
    let pl = 0;
    let any = false;
    if (bounds !== null && bounds.hasLo) {
      ph = bounds.loHi;
      pl = bounds.loLo;
      any = true;
    }
    for (let i = 0; i < count; i++) {
      const p = this.#pointer(h, i, top);
      const c = u32(b, p);
      this.#checkChild(c, i);
      child[i] = c;
      // The divider: a varint of up to 9 bytes, kept in two 32-bit halves.
      let q = p + 4;
      let hi = 0;
      let lo = 0;
      let v = 0;
      let k = 0;
      let x = 0x80;
      while (k < 7 && x >= 0x80) {
        x = b[q + k]!;
        v = v * 128 + (x & 0x7f);
        k++;
      }
      if (x < 0x80) {
        hi = Math.floor(v / TWO_32);
        lo = v >>> 0;
        q += k;
      } else [hi, lo, q] = bigVarint(b, q);
      if (q > end) throw this.#damage(`cell ${i + 1} runs past the end of the page`);
      if (hi >= 0x200000 || hi < -0x200000) safe = false;
      if (any && !keyBelow(ph, pl, hi, lo)) {
        throw this.#damage(
          `divider ${show(hi, lo)} of cell ${i + 1} is not above ${
            i === 0 ? "the key before the page" : "the divider before it"
          }, ${show(ph, pl)}`,
        );
      }
      ph = hi;
      pl = lo;
      any = true;
      keyHi[i] = hi;
      keyLo[i] = lo;
    }
    if (
      bounds !== null && bounds.hasHi && count > 0 && keyBelow(bounds.hiHi, bounds.hiLo, ph, pl)
    ) {
      throw this.#damage(
        `divider ${show(ph, pl)} of cell ${count} is above ${
          show(bounds.hiHi, bounds.hiLo)
        }, the key after the page`,
      );
    }
    this.safeKeys = safe;
  }

  #indexCells(h: number, count: number, top: number, leaf: boolean): void {
    const b = this.buf;
    const end = this.base + this.src.usable;
    const max = this.#maxIndex;
    const { payload, start, local, overflow, child } = this;
    const type = leaf ? INDEX_LEAF : INDEX_INTERIOR;
    for (let i = 0; i < count; i++) {
      let p = this.#pointer(h, i, top);
      if (!leaf) {
        const c = u32(b, p);
        this.#checkChild(c, i);
        child[i] = c;
        p += 4;
      }
      // The payload size: one or two bytes inline, more through varint().
      let size = b[p]!;
      if (size < 0x80) p++;
      else if (b[p + 1]! < 0x80) {
        size = ((size & 0x7f) << 7) | b[p + 1]!;
        p += 2;
      } else [size, p] = varint(b, p);
      if (p > end) throw this.#damage(`cell ${i + 1} runs past the end of the page`);
      if (size > 0x7fffffff) {
        throw this.#damage(`cell ${i + 1}'s payload size ${size} is larger than any record`);
      }
      payload[i] = size;
      start[i] = p;
      if (size <= max) {
        if (p + size > end) {
          throw this.#damage(
            `cell ${i + 1}'s record of ${size} bytes runs past the end of the page`,
          );
        }
        local[i] = size;
        overflow[i] = 0;
        if (recordCheck(b, p, size, size) !== 0) this.#recordDamage(i, p, size, size);
      } else {
        this.#spill(i, p, size, type, end);
      }
    }
    this.safeKeys = true;
  }

  /** Cell `i`'s payload of `size` bytes at `p` spills: its local part and first overflow page. */
  #spill(i: number, p: number, size: number, type: number, end: number): void {
    const usable = this.src.usable;
    const max = type === TABLE_LEAF ? this.#maxTable : this.#maxIndex;
    const min = this.#minLocal;
    const k = min + ((size - min) % (usable - 4));
    const keep = k <= max ? k : min;
    const pages = Math.ceil((size - keep) / (usable - 4));
    if (pages > this.src.pages) {
      throw this.#damage(
        `cell ${i + 1}'s payload of ${size} bytes needs more overflow pages than the file has`,
      );
    }
    if (p + keep + 4 > end) {
      throw this.#damage(`cell ${i + 1} runs past the end of the page`);
    }
    const next = u32(this.buf, p + keep);
    if (next < 2 || next > this.src.pages) {
      throw this.#damage(
        `cell ${i + 1}'s overflow chain starts at page ${next}, which is not in the file`,
      );
    }
    this.local[i] = keep;
    this.overflow[i] = next;
    // The header, when it lies whole on the page, is checked now; else as
    // the chain is read (payload.ts).
    const bad = recordCheck(this.buf, p, keep, size);
    if (bad === BAD) this.#recordDamage(i, p, keep, size);
  }

  #recordDamage(i: number, p: number, avail: number, size: number): void {
    const problem = this.#record.parse(this.buf, p, avail, size);
    if (problem !== null) throw this.#damage(`cell ${i + 1}: ${problem}`);
  }
}

/** What {@link recordCheck} finds. */
const OK = 0;
const BAD = 1;
const SHORT = 2;

/**
 * Checks the record header of the record of `size` bytes at `p`, of which
 * `avail` bytes are at hand: OK, BAD (the header is wrong), or SHORT (it
 * runs past the bytes at hand, which a record that spills may do).
 * Record.parse says what is wrong; this is the fast path of every cell.
 */
export function recordCheck(b: Uint8Array, p: number, avail: number, size: number): number {
  const limit = p + avail;
  let hs = b[p]!;
  let q = p + 1;
  if (hs >= 0x80) {
    hs &= 0x7f;
    for (let k = 0; k < 8; k++) {
      if (q >= limit) return SHORT;
      const x = b[q++]!;
      hs = hs * 128 + (x & 0x7f);
      if (x < 0x80) break;
      if (k === 7) return BAD;
    }
  }
  if (hs > size || hs > 98307 || hs < q - p) return BAD;
  const hend = p + hs;
  if (hend > limit) return SHORT;
  let sum = hs;
  while (q < hend) {
    let t = b[q++]!;
    if (t >= 0x80) {
      t &= 0x7f;
      for (let k = 0;; k++) {
        if (q >= hend || k > 7) return BAD;
        const x = b[q++]!;
        t = t * 128 + (x & 0x7f);
        if (x < 0x80) break;
      }
    }
    if (t >= 12) sum += t < 0x7fffffff ? (t - 12) >> 1 : Math.floor((t - 12) / 2);
    else {
      const w = SIZES[t]!;
      if (w < 0) return BAD;
      sum += w;
    }
  }
  return sum === size ? OK : BAD;
}

/** `recordCheck` results. */
export const RECORD = { OK, BAD, SHORT } as const;

/** The 32-bit big-endian unsigned integer at `at`. */
export function u32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
}

/** The varint at `at` as a number (exact below 2^53) and the offset after it. */
export function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const x = b[at + i]!;
    v = v * 128 + (x & 0x7f);
    if (x < 0x80) return [v, at + i + 1];
  }
  return [v * 256 + b[at + 8]!, at + 9];
}

/** The varint at `at` as a 64-bit integer in two 32-bit halves, and the offset after it. */
export function varint64(b: Uint8Array, at: number): [number, number, number] {
  let v = 0;
  for (let i = 0; i < 7; i++) {
    const x = b[at + i]!;
    v = v * 128 + (x & 0x7f);
    if (x < 0x80) return [Math.floor(v / TWO_32), v >>> 0, at + i + 1];
  }
  return bigVarint(b, at);
}

/** A varint of 8 or 9 bytes (or any), exactly, as two halves. */
function bigVarint(b: Uint8Array, at: number): [number, number, number] {
  let v = 0n;
  let i = 0;
  for (; i < 8; i++) {
    const x = b[at + i]!;
    v = (v << 7n) | BigInt(x & 0x7f);
    if (x < 0x80) break;
  }
  if (i === 8) v = (v << 8n) | BigInt(b[at + 8]!);
  const s = BigInt.asIntN(64, v);
  return [Number(s >> 32n), Number(s & 0xffffffffn), at + Math.min(i, 8) + 1];
}

/** A 64-bit integer given as two halves, as text. */
function show(hi: number, lo: number): string {
  const v = hi * TWO_32 + lo;
  return Number.isSafeInteger(v) ? String(v) : String((BigInt(hi) << 32n) | BigInt(lo));
}

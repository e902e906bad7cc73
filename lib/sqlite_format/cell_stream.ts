/**
 * The b-tree cursor the diff walks: one tree's cells in key order, with a
 * few cells of lookahead, over leaves read ahead (leaf_reader.ts). A leaf
 * is parsed and checked (btree_page.ts) the first time one of its cells is
 * looked at, so a leaf skipped whole (the same bytes on the other side) is
 * parsed on one side only; an index tree's interior cells come in their
 * place. Every overflow chain of a leaf taken is followed and claimed once
 * before the leaf is let go (overflow.ts): compared with the chain of the
 * other side's cell when the two are compared, or checked alone.
 *
 * Waiting for a read is explicit: {@link CellStream.ensure} gives a promise
 * when a leaf must still be read, null when the cells asked for are at
 * hand, so a comparison loop awaits only at the end of a run of leaves.
 *
 * @module
 */
import { BtreePage, type TreeKind } from "./btree_page.ts";
import { type LeafItem, LeafReader } from "./leaf_reader.ts";
import { ChainReader, Payloads } from "./overflow.ts";
import type { KeyOrder } from "./key_order.ts";
import type { PageOwners } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";
import { type KeyRanges, type OwnerCheck, TreeWalk } from "./tree_walk.ts";

const OUTSIDE = "its rowids lie outside the range its parent pages give it";

/** Whether keys from (fh, fl) to (lh, ll) lie outside the range `b`. */
function outside(b: LeafItem["bounds"], fh: number, fl: number, lh: number, ll: number): boolean {
  return (b.hasLo && !(fh > b.loHi || (fh === b.loHi && fl > b.loLo))) ||
    (b.hasHi && (lh > b.hiHi || (lh === b.hiHi && ll > b.hiLo)));
}

/** A leaf (or an index tree's interior cell) in view. */
interface Held {
  item: LeafItem;
  readonly page: BtreePage;
  parsed: boolean;
  /** Found the same bytes as the other side's leaf, which was parsed and checked instead. */
  proxied: boolean;
  count: number;
  /** 1 for each cell whose overflow chain is followed already. */
  readonly claimed: Uint8Array;
}

/**
 * One tree's cells in key order (see the module documentation).
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { CellStream } from "./cell_stream.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * const cells = new CellStream(src, 1, "table", null, "none");
 * let n = 0;
 * for (;;) {
 *   await cells.ensure(1);
 *   if (!cells.has(0)) break;
 *   n++;
 *   cells.skip(1);
 * }
 * await cells.close();
 * n; // 2: sqlite_schema's rows
 * src.close();
 * ```
 */
export class CellStream {
  readonly src: PageSource;
  readonly kind: TreeKind;
  readonly #reader: LeafReader;
  readonly #payloads: Payloads;
  readonly #chainA: ChainReader;
  readonly #chainB: ChainReader;
  /** Leaves in view, the current cell's first. */
  readonly #held: Held[] = [];
  readonly #spare: Held[] = [];
  /** The current cell's index in the first leaf held. */
  #at = 0;
  #ended = false;
  /** Where {@link payloadOnce} gathers a spilled payload, grown as needed and reused. */
  #gathered = new Uint8Array(0);
  /** Where the last {@link locate} found its cell. */
  page: BtreePage | null = null;
  index = 0;
  /**
   * An index tree's key order, checked page by page as the stream lets go
   * of its pages (key_order.ts): set it before the first cell is read.
   */
  order: KeyOrder | null = null;

  /**
   * @param src the file
   * @param root the tree's root page
   * @param kind its kind
   * @param owners the file's page owners (overflow pages are claimed), or null
   * @param check what the walk does with the tree's own pages (see TreeWalk)
   * @param ranges for a table tree, only the leaves whose keys may lie in these
   */
  constructor(
    src: PageSource,
    root: number,
    kind: TreeKind,
    owners: PageOwners | null,
    check: OwnerCheck,
    ranges: KeyRanges | null = null,
  ) {
    this.src = src;
    this.kind = kind;
    this.#reader = new LeafReader(new TreeWalk(src, root, kind, owners, check, ranges));
    this.#payloads = new Payloads(src, owners);
    this.#chainA = new ChainReader(src, owners);
    this.#chainB = new ChainReader(src, null);
  }

  /** Cells in view from the current one (at least what {@link ensure} asked for, unless the tree ends). */
  #inView(): number {
    let n = -this.#at;
    for (const h of this.#held) n += h.count;
    return n;
  }

  /**
   * Brings `n` cells from the current one into view (fewer at the end of
   * the tree).
   *
   * @param n how many
   * @returns null when they are in view, else a promise to await first
   */
  ensure(n: number): Promise<void> | null {
    // The common case: the cells asked for lie on the current leaf.
    const first = this.#held[0];
    if (first !== undefined && this.#at + n <= first.count) return null;
    // Leaves whose run is read already are taken at once; a promise only
    // when one must still be waited for.
    while (!this.#ended && this.#inView() < n) {
      const got = this.#reader.take();
      if (got instanceof Promise) return this.#wait(got, n);
      this.#hold(got);
    }
    return null;
  }

  async #wait(pending: Promise<LeafItem | null>, n: number): Promise<void> {
    this.#hold(await pending);
    const more = this.ensure(n);
    if (more !== null) await more;
  }

  #hold(got: LeafItem | null): void {
    if (got === null) {
      this.#ended = true;
      return;
    }
    const held = this.#spare.pop() ?? {
      item: got,
      page: new BtreePage(this.src),
      parsed: false,
      proxied: false,
      count: 0,
      claimed: new Uint8Array(Math.floor((this.src.pageSize - 8) / 6) + 1),
    };
    held.item = got;
    held.parsed = false;
    held.proxied = false;
    if (got.cell) {
      held.page.single(got.page, got.buf, got.payload, got.overflow);
      held.parsed = true;
      held.count = 1;
    } else {
      // The count alone: the leaf is parsed when a cell of it is looked at.
      const h = got.base + (got.page === 1 ? 100 : 0);
      held.count = (got.buf[h + 3]! << 8) | got.buf[h + 4]!;
      // An empty page is looked at now: it may be no leaf at all.
      if (held.count === 0) this.#parse(held);
    }
    held.claimed.fill(0, 0, held.count);
    this.#held.push(held);
  }

  #parse(h: Held): void {
    if (h.parsed) return;
    const { item } = h;
    h.page.parse(item.page, item.buf, item.base, this.kind, item.bounds, true);
    h.parsed = true;
    h.count = h.page.count;
  }

  /** Whether a cell is in view `d` cells ahead of the current one. */
  has(d: number): boolean {
    return this.locate(d);
  }

  /**
   * Points {@link page} and {@link index} at the cell `d` ahead (parsing
   * its leaf if need be); false when it is not in view.
   */
  locate(d: number): boolean {
    let i = this.#at + d;
    for (const h of this.#held) {
      if (i < h.count) {
        this.#parse(h);
        this.page = h.page;
        this.index = i;
        return true;
      }
      i -= h.count;
    }
    return false;
  }

  /** Whether the current cell is the first of a leaf (not an interior cell), and its page number. */
  leafStart(): number {
    const h = this.#held[0];
    if (h === undefined || this.#at !== 0 || h.item.cell) return 0;
    return h.item.page;
  }

  /** The current leaf's bytes (after {@link leafStart}): the buffer and where the page starts. */
  leafBytes(): { readonly buf: Uint8Array; readonly base: number } {
    const item = this.#held[0]!.item;
    return { buf: item.buf, base: item.base };
  }

  /** The current leaf, parsed (checked). */
  leaf(): BtreePage {
    const h = this.#held[0]!;
    this.#parse(h);
    return h.page;
  }

  /** The key range the current leaf's parents give it. */
  leafBounds(): LeafItem["bounds"] {
    return this.#held[0]!.item.bounds;
  }

  /** Moves `n` cells on, letting go of the leaves passed (their chains checked first). */
  skip(n: number): void {
    this.#at += n;
    while (this.#held.length > 0 && this.#at >= this.#held[0]!.count) {
      const h = this.#held.shift()!;
      this.#at -= h.count;
      this.#letGo(h);
    }
  }

  /** Skips the rest of the current leaf. */
  skipLeaf(): void {
    const h = this.#held[0];
    if (h !== undefined) this.skip(h.count - this.#at);
  }

  #letGo(h: Held): void {
    if (h.proxied) {
      this.#reader.release(h.item);
      this.#spare.push(h);
      return;
    }
    if (!h.item.cell) this.#parse(h);
    const page = h.page;
    for (let i = 0; i < h.count; i++) {
      if (page.overflow[i] !== 0 && h.claimed[i] === 0) this.#payloads.check(page, i);
    }
    this.order?.page(page, (i) => this.#whole(page, i));
    this.#reader.release(h.item);
    this.#spare.push(h);
  }

  /**
   * Cell `i` of `page`'s whole payload, its chain read again (without
   * claiming it); a spilled one into a new array, or with `reuse` into
   * {@link #gathered}.
   */
  #whole(page: BtreePage, i: number, reuse = false): Uint8Array {
    const start = page.start[i]!;
    const size = page.payload[i]!;
    if (page.overflow[i] === 0) return page.buf.subarray(start, start + size);
    if (reuse && this.#gathered.length < size) {
      this.#gathered = new Uint8Array(Math.max(size, 2 * this.#gathered.length));
    }
    const out = reuse ? this.#gathered.subarray(0, size) : new Uint8Array(size);
    const local = page.local[i]!;
    out.set(page.buf.subarray(start, start + local));
    const chain = this.#chainB;
    chain.start(page.overflow[i]!, size - local, page.number, i + 1);
    let at = local;
    while (chain.step()) {
      out.set(chain.page.subarray(4, 4 + chain.bytes), at);
      at += chain.bytes;
    }
    return out;
  }

  /** The leaf in view holding the cell `d` ahead, and the cell's index in it. */
  #heldAt(d: number): [Held, number] {
    let i = this.#at + d;
    for (const h of this.#held) {
      if (i < h.count) return [h, i];
      i -= h.count;
    }
    throw new Error("internal: a cell out of view");
  }

  /**
   * The whole payload of the cell `d` ahead (which must be in view): a view
   * of its page, or for one that spills a copy with its chain read (without
   * claiming it again).
   */
  payload(d: number): Uint8Array {
    this.locate(d);
    return this.#whole(this.page!, this.index);
  }

  /**
   * {@link payload}, for a reader that is done with the bytes before it
   * asks this stream for another cell's (a record parsed and its values
   * copied out): a payload that spills is gathered into one buffer of the
   * stream's, which the next call overwrites. A row loop over large values
   * then makes no garbage of them (500 changed rows of 2 MB BLOBs made 2 GB,
   * which Bun's collector let pile up to a peak of 200 MB).
   */
  payloadOnce(d: number): Uint8Array {
    this.locate(d);
    return this.#whole(this.page!, this.index, true);
  }

  /**
   * Whether the cell `d` ahead here and the cell `e` ahead in `other` hold
   * the same payload, byte for byte; spilled payloads are compared page by
   * page along both chains (see {@link #chains}).
   */
  same(d: number, other: CellStream, e: number): boolean {
    this.locate(d);
    other.locate(e);
    const x = this.page!;
    const y = other.page!;
    const i = this.index;
    const j = other.index;
    const size = x.payload[i]!;
    if (size !== y.payload[j]!) return false;
    const n = x.local[i]!;
    if (n !== y.local[j]!) return false;
    const p = x.buf;
    const q = y.buf;
    let a = x.start[i]!;
    let b = y.start[j]!;
    const end = a + n;
    while (a < end) if (p[a++] !== q[b++]) return false;
    if (x.overflow[i] === 0 && y.overflow[j] === 0) return true;
    const [hx, ix] = this.#heldAt(d);
    const [hy, iy] = other.#heldAt(e);
    return this.#chains(x, ix, hx, other, y, iy, hy);
  }

  /**
   * Compares cell `i` of `x` (held in `hx`) with cell `j` of `y` (in `other`,
   * held in `hy`), payloads of one size whose local parts are the same,
   * along their overflow chains. A chain not yet followed is claimed as it
   * is read (each chain is claimed once: here, or checked alone when its
   * leaf is let go); one followed already is read again without claiming.
   */
  #chains(
    x: BtreePage,
    i: number,
    hx: Held,
    other: CellStream,
    y: BtreePage,
    j: number,
    hy: Held,
  ): boolean {
    const left = x.payload[i]! - x.local[i]!;
    const ca = hx.claimed[i] === 0 ? this.#chainA : this.#chainB;
    const cb = hy.claimed[j] === 0 ? other.#chainA : other.#chainB;
    ca.start(x.overflow[i]!, left, x.number, i + 1);
    cb.start(y.overflow[j]!, left, y.number, j + 1);
    hx.claimed[i] = 1;
    hy.claimed[j] = 1;
    let same = true;
    for (;;) {
      const more = ca.step();
      if (more !== cb.step()) same = false;
      if (!more) break;
      if (same) {
        const pa = ca.page;
        const pb = cb.page;
        for (let k = 4; k < 4 + ca.bytes; k++) {
          if (pa[k] !== pb[k]) {
            same = false;
            break;
          }
        }
      }
    }
    // A chain longer than its payload needs: read on to its end, which says so.
    while (ca.step());
    while (cb.step());
    return same;
  }

  /**
   * Whether the current leaf here and `other`'s current leaf, found to be
   * the same bytes (and the same page number), hold the same rows: this one
   * is parsed and checked, its keys must lie inside the range `other`'s
   * parents give its leaf too, and the overflow chains of its cells are
   * compared with `other`'s. When true, both may skip the leaf, and
   * `other`'s is never parsed: it is the same page.
   */
  sameLeaf(other: CellStream): boolean {
    const h = this.#held[0]!;
    const g = other.#held[0]!;
    const b = g.item.bounds;
    // A sound leaf that spills nothing: checked without parsing its cells.
    if (this.kind === "table" && !h.parsed && !h.item.cell) {
      const page = h.page;
      const { item } = h;
      if (page.soundLeaf(item.page, item.buf, item.base, item.bounds)) {
        if (page.count > 0 && outside(b, page.firstHi, page.firstLo, page.lastHi, page.lastLo)) {
          throw other.src.damaged(g.item.page, OUTSIDE);
        }
        h.proxied = true;
        g.proxied = true;
        h.count = g.count = page.count;
        return true;
      }
    }
    this.#parse(h);
    const page = h.page;
    if (this.kind === "table" && page.count > 0) {
      const last = page.count - 1;
      if (outside(b, page.keyHi[0]!, page.keyLo[0]!, page.keyHi[last]!, page.keyLo[last]!)) {
        throw other.src.damaged(g.item.page, OUTSIDE);
      }
    }
    let same = true;
    for (let i = 0; i < page.count; i++) {
      if (page.overflow[i] !== 0 && !this.#chains(page, i, h, other, page, i, g)) same = false;
    }
    if (same) {
      g.proxied = true;
      g.count = page.count;
      // Its entries are checked here (when this stream lets go of the
      // page); the other stream checks only where they meet its own.
      other.order?.proxied(page, (i) => this.#whole(page, i));
    }
    return same;
  }

  /**
   * Lets go of every leaf still in view (their chains checked) and of the
   * rest of the tree's reads: call when done with the stream, whether or
   * not it was read to the end.
   */
  async close(): Promise<void> {
    try {
      while (this.#held.length > 0) this.#letGo(this.#held.shift()!);
    } finally {
      await this.#reader.settle();
    }
  }
}

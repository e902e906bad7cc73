/**
 * A b-tree's leaves in key order, read ahead: the walk of the interior
 * pages (tree_walk.ts) tells which leaves come next, and runs of them that
 * lie close together in the file are read at once on the runtime's I/O
 * threads, a few runs ahead of the reader, so that reading overlaps the
 * work on the leaves before (a table built in key order has its leaves in
 * ascending pages: its runs are long).
 *
 * An index b-tree's interior cells come in key order between the leaves,
 * each as an item of its own holding a copy of the cell.
 *
 * An item stays valid until it is released; a run's buffer is read into
 * again only once every item in it is released, so a reader may hold a
 * few items at once (the cell comparison looks a few cells ahead). Memory:
 * {@link SLOTS} runs of {@link RUN_BYTES} a tree at most.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import { type KeyBounds, openBounds } from "./btree_page.ts";
import type { BtreePage } from "./btree_page.ts";
import { CELL, END, type TreeWalk } from "./tree_walk.ts";

/** The most bytes read at once. */
export const RUN_BYTES = 1024 * 1024;
/** Run buffers a reader keeps: the ones in use, and the ones read ahead. */
const SLOTS = 5;
/** Runs read ahead of the one in use. */
const AHEAD = 2;
/** Pages between two leaves that are read with them rather than split the run. */
const GAP = 8;

interface Slot {
  buf: Buffer;
  first: number;
  count: number;
  loaded: boolean;
  promise: Promise<void> | null;
  /** Leaves of this run still queued, and handed out but not yet released. */
  queued: number;
  held: number;
}

/** One leaf, or one interior cell of an index b-tree. */
export interface LeafItem {
  /** A leaf's page number, or for a cell the interior page holding it. */
  page: number;
  /** Whether this is an index tree's interior cell rather than a leaf. */
  cell: boolean;
  /** A leaf's bytes: `buf` from `base`. A cell's: its payload's local bytes, from 0. */
  buf: Uint8Array;
  base: number;
  /** A leaf's key range (table trees). */
  readonly bounds: KeyBounds;
  /** A cell's payload size, and its first overflow page (0: none). */
  payload: number;
  overflow: number;
  /** Index of the cell in its interior page (for messages). */
  index: number;
  /** The run holding a leaf (internal). */
  slot: Slot | null;
}

interface Queued {
  page: number;
  readonly bounds: KeyBounds;
  slot: Slot | null;
  /** For an index tree's interior cell: its copy. */
  cell: { bytes: Uint8Array; payload: number; overflow: number; index: number } | null;
}

/**
 * Reads a tree's leaves ahead of its reader (see the module documentation).
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { TreeWalk } from "./tree_walk.ts";
 * import { LeafReader } from "./leaf_reader.ts";
 * const src = PageSource.open("examples/chinook/Chinook_Sqlite.sqlite");
 * const reader = new LeafReader(new TreeWalk(src, 1, "table", null, "none"));
 * let leaves = 0;
 * for (;;) {
 *   let got = reader.take();
 *   if (got instanceof Promise) got = await got;
 *   if (got === null) break;
 *   leaves++;
 *   reader.release(got);
 * }
 * leaves > 0; // true
 * src.close();
 * ```
 */
export class LeafReader {
  readonly walk: TreeWalk;
  readonly #pageSize: number;
  readonly #runPages: number;
  readonly #slots: Slot[] = [];
  /** Leaves and cells from the walk not yet handed out, in key order, from {@link #head}. */
  #queue: Queued[] = [];
  #head = 0;
  /** Entries from the head on that have a run (read or being read), or are cells. */
  #scheduled = 0;
  #ended = false;
  /** Runs with leaves still queued. */
  #runsQueued = 0;
  readonly #free: LeafItem[] = [];
  readonly #spare: Queued[] = [];

  /** @param walk the tree's walk (its leaves are taken from it as needed) */
  constructor(walk: TreeWalk) {
    this.walk = walk;
    this.#pageSize = walk.src.pageSize;
    this.#runPages = Math.max(1, Math.floor(RUN_BYTES / this.#pageSize));
  }

  /**
   * The next leaf or cell, or null after the last; a promise when its run
   * is still being read (await it, then it is the item).
   */
  take(): LeafItem | null | Promise<LeafItem | null> {
    let head = this.#queue[this.#head];
    if (head === undefined || (head.cell === null && head.slot === null)) {
      this.#schedule(true);
      head = this.#queue[this.#head];
    }
    if (head === undefined) return null;
    if (head.slot !== null && !head.slot.loaded) {
      return head.slot.promise!.then(() => this.take());
    }
    this.#head++;
    this.#scheduled--;
    if (this.#head >= 1024) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    const item = this.#free.pop() ?? {
      page: 0,
      cell: false,
      buf: new Uint8Array(0),
      base: 0,
      bounds: openBounds(),
      payload: 0,
      overflow: 0,
      index: 0,
      slot: null,
    };
    item.page = head.page;
    item.slot = head.slot;
    copy(head.bounds, item.bounds);
    if (head.cell !== null) {
      item.cell = true;
      item.buf = head.cell.bytes;
      item.base = 0;
      item.payload = head.cell.payload;
      item.overflow = head.cell.overflow;
      item.index = head.cell.index;
    } else {
      const slot = head.slot!;
      if (--slot.queued === 0) this.#runsQueued--;
      slot.held++;
      item.cell = false;
      item.buf = slot.buf;
      item.base = (head.page - slot.first) * this.#pageSize;
    }
    head.slot = null;
    head.cell = null;
    this.#spare.push(head);
    if (this.#runsQueued <= AHEAD) this.#schedule(false);
    return item;
  }

  /**
   * Waits for every read still under way (before the file is closed), and
   * gives the run buffers back to the source: call once done with the reader.
   */
  async settle(): Promise<void> {
    for (const s of this.#slots) await s.promise?.catch(() => {});
    for (const s of this.#slots) this.walk.src.giveBack(s.buf);
    this.#slots.length = 0;
  }

  /** Hands an item back: its run may then be read into again. */
  release(item: LeafItem): void {
    if (item.slot !== null) item.slot.held--;
    item.slot = null;
    this.#free.push(item);
  }

  /**
   * Queues leaves from the walk and starts reading runs, up to {@link AHEAD}
   * runs beyond the one holding the next leaf; `head`: the next leaf must
   * get a run even if every buffer is in use (then one more is made).
   */
  #schedule(head: boolean): void {
    for (;;) {
      this.#fill(this.#scheduled + this.#runPages + 1);
      const queue = this.#queue;
      const h = this.#head;
      const size = queue.length - h;
      // Cells need no run.
      while (this.#scheduled < size && queue[h + this.#scheduled]!.cell !== null) {
        this.#scheduled++;
      }
      if (this.#scheduled >= size) return;
      const needed = head && this.#scheduled === 0;
      if (this.#runsQueued > AHEAD && !needed) return;
      const slot = this.#slot(needed);
      if (slot === null) return;
      // The run: leaves that follow in ascending pages, near each other;
      // the cells between them ride along.
      const first = queue[h + this.#scheduled]!.page;
      let last = first;
      let members = 0;
      let k = this.#scheduled;
      for (; k < size; k++) {
        const q = queue[h + k]!;
        if (q.cell !== null) continue;
        if (
          members > 0 && (q.page <= last || q.page > last + GAP || q.page >= first + this.#runPages)
        ) {
          break;
        }
        q.slot = slot;
        last = q.page;
        members++;
      }
      // Cells after the run's last leaf wait for the next run's scheduling.
      while (k > this.#scheduled && queue[h + k - 1]!.cell !== null) k--;
      this.#scheduled = k;
      slot.first = first;
      slot.count = last - first + 1;
      slot.loaded = false;
      slot.queued = members;
      slot.held = 0;
      this.#runsQueued++;
      const read = this.walk.src.readRun(first, slot.count, slot.buf).then(() => {
        slot.loaded = true;
      });
      // A failed read is reported when its leaf is taken.
      read.catch(() => {});
      slot.promise = read;
    }
  }

  /** A run buffer no leaf uses, or null when all are in use (unless `force`). */
  #slot(force: boolean): Slot | null {
    for (const s of this.#slots) {
      if (s.queued === 0 && s.held === 0 && (s.loaded || s.promise === null)) return s;
    }
    if (this.#slots.length >= SLOTS && !force) return null;
    const slot: Slot = {
      // A Buffer, so that pages in it compare natively without a view each.
      buf: this.walk.src.borrow(this.#runPages * this.#pageSize),
      first: 0,
      count: 0,
      loaded: false,
      promise: null,
      queued: 0,
      held: 0,
    };
    this.#slots.push(slot);
    return slot;
  }

  /** Queues entries from the walk until `n` are queued or it ends. */
  #fill(n: number): void {
    while (this.#queue.length - this.#head < n && !this.#ended) {
      const got = this.walk.next();
      if (got === END) {
        this.#ended = true;
        break;
      }
      const q = this.#spare.pop() ?? { page: 0, bounds: openBounds(), slot: null, cell: null };
      q.slot = null;
      q.cell = null;
      if (got === CELL) {
        const page = this.walk.cellPage!;
        const i = this.walk.cellIndex;
        q.page = page.number;
        q.cell = cellCopy(page, i);
      } else {
        q.page = got;
        copy(this.walk.bounds, q.bounds);
      }
      this.#queue.push(q);
    }
  }
}

/** An interior cell's local payload and overflow page, copied out of its page. */
function cellCopy(
  page: BtreePage,
  i: number,
): { bytes: Uint8Array; payload: number; overflow: number; index: number } {
  const start = page.start[i]!;
  const local = page.local[i]!;
  const bytes = new Uint8Array(local);
  bytes.set(page.buf.subarray(start, start + local));
  return {
    bytes,
    payload: page.payload[i]!,
    overflow: page.overflow[i]!,
    index: i,
  };
}

function copy(from: KeyBounds, to: KeyBounds): void {
  to.hasLo = from.hasLo;
  to.loHi = from.loHi;
  to.loLo = from.loLo;
  to.hasHi = from.hasHi;
  to.hiHi = from.hiHi;
  to.hiLo = from.hiLo;
}

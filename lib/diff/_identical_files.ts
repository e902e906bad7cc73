/**
 * Two files that are byte for byte the same, found in one read of each in
 * big chunks, each chunk compared at once, with the first file's pages
 * checked as they go by: a byte copy of a 2M-row file is a diff of no
 * change in about the time it takes to read both (bench/README.md), where
 * comparing its two b-trees leaf by leaf costs the walk of every leaf.
 *
 * The pages are met in file order, not key order, so the key range each
 * leaf may hold comes from the walk of the trees' interior pages done
 * before (tree_walk.ts LeafMap): each leaf of a table is checked whole,
 * its cells, keys and records (btree_page.ts), as the comparison of two
 * trees checks the leaves it reads; a cell that spills has its overflow
 * chain followed and claimed. The files being the same, what holds for one
 * holds for the other. At the first chunk that differs the read stops, and
 * the tables are compared one by one.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { BtreePage, openBounds } from "../sqlite_format/btree_page.ts";
import { Payloads } from "../sqlite_format/overflow.ts";
import type { LeafMap } from "../sqlite_format/tree_walk.ts";
import type { PageSide } from "./_page_sides.ts";

/** Bytes read from each file at once. */
const CHUNK = 4 * 1024 * 1024;

/**
 * Whether the two files hold the same pages, every leaf of the first
 * checked (see the module documentation).
 *
 * @param a the before side (its trees walked, their leaves noted in `leaves`)
 * @param b the after side
 * @param leaves where the before side's table leaves are, and their key ranges
 * @returns true when every page is the same
 * @throws {SqliteDamageError} when a leaf of the first file is damaged
 */
export async function identicalFiles(a: PageSide, b: PageSide, leaves: LeafMap): Promise<boolean> {
  const x = a.src;
  const y = b.src;
  if (x.walPages > 0 || y.walPages > 0 || x.pageSize !== y.pageSize || x.pages !== y.pages) {
    return false;
  }
  const size = x.pageSize;
  const per = Math.max(1, Math.floor(CHUNK / size));
  const bufs = [0, 1].map(() => [Buffer.allocUnsafe(per * size), Buffer.allocUnsafe(per * size)]);
  const page = new BtreePage(x);
  const payloads = new Payloads(x, a.owners);
  const bounds = openBounds();
  const read = (first: number, k: number): Promise<unknown> => {
    const count = Math.min(per, x.pages - first + 1);
    // Both reads are done before a failure is reported (and the files closed).
    return Promise.allSettled([
      x.readRun(first, count, bufs[k]![0]!),
      y.readRun(first, count, bufs[k]![1]!),
    ]).then(([p, q]) => {
      if (p!.status === "rejected") throw p.reason;
      if (q!.status === "rejected") throw q.reason;
    });
  };
  let next: Promise<unknown> | null = x.pages > 0 ? read(1, 0) : null;
  try {
    for (let first = 1, k = 0; first <= x.pages; first += per, k ^= 1) {
      await next;
      next = first + per <= x.pages ? read(first + per, k ^ 1) : null;
      const [p, q] = bufs[k]!;
      const count = Math.min(per, x.pages - first + 1);
      if (p!.compare(q!, 0, count * size, 0, count * size) !== 0) return false;
      for (let i = 0; i < count; i++) {
        const n = first + i;
        const kind = leaves.kind[n];
        if (kind === 0) continue;
        const at = i * size;
        leaves.bounds(n, bounds);
        if (kind === 1 && page.soundLeaf(n, p!, at, bounds)) continue;
        // A closer look: the damage, or cells that spill (their chains followed).
        page.parse(n, p!, at, kind === 1 ? "table" : "index", kind === 1 ? bounds : null, true);
        for (let c = 0; c < page.count; c++) if (page.overflow[c] !== 0) payloads.check(page, c);
      }
    }
    return true;
  } finally {
    await next?.catch(() => {});
  }
}

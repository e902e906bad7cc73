/**
 * The pages no b-tree holds: the freelist (a chain of trunk pages, each
 * listing free leaf pages) and, in a file with auto_vacuum on, the pointer
 * map pages (one every `usable / 5` pages, from page 2, each giving the
 * parent of the pages after it). Both are claimed page by page
 * (page_owners.ts), so a free page that is also in a tree, or a trunk chain
 * that loops, is damage; and the freelist must hold as many pages as the
 * header says.
 *
 * @module
 */
import { u32 } from "./btree_page.ts";
import { FREELIST_LEAF, FREELIST_TRUNK, type PageOwners, POINTER_MAP } from "./page_owners.ts";
import type { PageSource } from "./page_source.ts";

/**
 * Claims every page of the freelist, checking it.
 *
 * @param src the file
 * @param owners its page owners
 * @returns the number of free pages (trunks included)
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { PageOwners } from "./page_owners.ts";
 * import { claimFreelist } from "./freelist.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * claimFreelist(src, new PageOwners(src, () => "?")); // 0
 * src.close();
 * ```
 */
export function claimFreelist(src: PageSource, owners: PageOwners): number {
  const page = new Uint8Array(src.pageSize);
  const maxLeaves = src.usable / 4 - 2;
  let trunk = src.header.freelistTrunk;
  let from = 1;
  let total = 0;
  while (trunk !== 0) {
    owners.claim(trunk, FREELIST_TRUNK, from);
    src.read(trunk, page);
    total++;
    const count = u32(page, 4);
    if (count > maxLeaves) {
      throw src.damaged(
        trunk,
        `the freelist trunk lists ${count} pages, more than a page holds (${maxLeaves})`,
      );
    }
    for (let i = 0; i < count; i++) owners.claim(u32(page, 8 + 4 * i), FREELIST_LEAF, trunk);
    total += count;
    from = trunk;
    trunk = u32(page, 0);
  }
  const expected = src.header.freelistCount;
  if (total !== expected) {
    throw src.damaged(1, `the freelist holds ${total} pages but the header says ${expected}`);
  }
  return total;
}

/**
 * Whether page `n` is a pointer-map page of a file with auto_vacuum on
 * (btree.c ptrmapPageno).
 *
 * @param src the file
 * @param n the page
 * @returns true for a pointer-map page
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { isPointerMapPage } from "./freelist.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * isPointerMapPage(src, 2); // false: auto_vacuum is off
 * src.close();
 * ```
 */
export function isPointerMapPage(src: PageSource, n: number): boolean {
  if (src.header.autoVacuumRoot === 0 || n < 2) return false;
  return pointerMapPageOf(src, n) === n;
}

/** The pointer-map page that holds page `n`'s entry. */
export function pointerMapPageOf(src: PageSource, n: number): number {
  const per = Math.floor(src.usable / 5) + 1;
  const map = Math.floor((n - 2) / per) * per + 2;
  return map === src.lockPage ? map + 1 : map;
}

/**
 * Claims every pointer-map page of a file with auto_vacuum on.
 *
 * @param src the file
 * @param owners its page owners
 * @returns how many there are
 */
export function claimPointerMap(src: PageSource, owners: PageOwners): number {
  if (src.header.autoVacuumRoot === 0) return 0;
  const per = Math.floor(src.usable / 5) + 1;
  let count = 0;
  for (let map = 2; map <= src.pages; map += per) {
    const n = map === src.lockPage ? map + 1 : map;
    if (n > src.pages) break;
    owners.claim(n, POINTER_MAP, 0);
    count++;
  }
  return count;
}

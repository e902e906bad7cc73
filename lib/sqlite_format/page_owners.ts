/**
 * Who holds each page of a file: a b-tree (by its root page), an overflow
 * chain, the freelist, the pointer map or the lock-byte page. Every page a
 * reader reaches is claimed once; a page claimed twice (a child two
 * interior pages list, a page two overflow chains share, a chain that
 * loops back on itself, a free page still in a tree) is damage.
 *
 * @module
 */
import type { PageSource } from "./page_source.ts";

/** What holds a page, besides a b-tree (whose owner is its root page number). */
export const OVERFLOW = -1;
export const FREELIST_TRUNK = -2;
export const FREELIST_LEAF = -3;
export const POINTER_MAP = -4;
export const LOCK_BYTE = -5;

const NAMES: Record<number, string> = {
  [OVERFLOW]: "an overflow chain",
  [FREELIST_TRUNK]: "the freelist (a trunk page)",
  [FREELIST_LEAF]: "the freelist",
  [POINTER_MAP]: "the pointer map",
  [LOCK_BYTE]: "the lock-byte page, which holds no data",
};

/**
 * The owner of every page of one file (4 bytes a page).
 *
 * @example
 * ```ts
 * import { PageSource } from "./page_source.ts";
 * import { OVERFLOW, PageOwners } from "./page_owners.ts";
 * const src = PageSource.open("examples/db_agent/users.db");
 * const owners = new PageOwners(src, () => "sqlite_schema");
 * owners.claim(2, OVERFLOW);
 * owners.owner(2); // -1
 * src.close();
 * ```
 */
export class PageOwners {
  readonly #src: PageSource;
  readonly #owner: Int32Array;
  readonly #name: (root: number) => string;

  /**
   * @param src the file
   * @param name the name of the b-tree with this root page, for messages
   */
  constructor(src: PageSource, name: (root: number) => string) {
    this.#src = src;
    this.#owner = new Int32Array(src.pages + 1);
    this.#name = name;
    if (src.lockPage !== 0) this.#owner[src.lockPage] = LOCK_BYTE;
  }

  /** Page `n`'s owner: a root page number, one of the negative codes, or 0 for none yet. */
  owner(n: number): number {
    return this.#owner[n] ?? 0;
  }

  /**
   * Claims page `n` for `owner`.
   *
   * @param n the page
   * @param owner a root page number, or one of the negative codes
   * @param from the page that points at it, for the message (0: none)
   * @throws {SqliteDamageError} when the page is not in the file or already claimed
   */
  claim(n: number, owner: number, from = 0): void {
    if (!(n >= 1 && n <= this.#src.pages)) {
      throw this.#src.damaged(from, `it points at page ${n}, which is not in the file`);
    }
    const had = this.#owner[n]!;
    if (had !== 0) {
      const twice = had === owner
        ? `it is reached twice in ${this.describe(owner)}`
        : `it is in ${this.describe(had)} and in ${this.describe(owner)}`;
      throw this.#src.damaged(
        n,
        from === 0 ? twice : `${twice} (the second time from page ${from})`,
      );
    }
    this.#owner[n] = owner;
  }

  /**
   * Checks that page `n` belongs to `owner` (claimed earlier by a walk of its tree).
   *
   * @param n the page
   * @param owner the root page of the tree that reached it
   * @throws {SqliteDamageError} when another owner holds it
   */
  expect(n: number, owner: number): void {
    const had = this.#owner[n];
    if (had !== owner) {
      throw this.#src.damaged(
        n,
        `it is in ${this.describe(owner)} and in ${
          had === undefined || had === 0 ? "no walk of it" : this.describe(had)
        }`,
      );
    }
  }

  /** What an owner is, in words. */
  describe(owner: number): string {
    return owner > 0 ? `the b-tree of ${this.#name(owner)}` : NAMES[owner] ?? "nothing";
  }
}

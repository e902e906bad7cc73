/**
 * The cases of a run without holding them all: a JSON lines cases file is
 * read twice, once to validate every case and keep what choosing and
 * checking the cases needs (ids, tags, a few flags), and once more as the
 * run takes its cases, a case at a time. A YAML or JSON file is one
 * document, parsed whole, so its cases are held as before.
 *
 * Every mistake in the file is still found before any case runs, with its
 * file and line; a file that changes between the two readings stops the
 * run at the first case that differs.
 *
 * @module
 */
import { CasesFileError } from "../errors.ts";
import type { TestCase } from "./case.ts";
import { type CaseFields, caseFrom, CaseProblem, readCase } from "./case_schema.ts";
import {
  duplicateIdError,
  freeSlug,
  jsonlValue,
  loadCases,
  rememberLine,
  slugify,
  unreadableError,
} from "./cases.ts";
import { DB_EXPECT_KEYS } from "./checks/db_expect.ts";
import { LineReader } from "./_line_reader.ts";

/** What selecting and sharding a case needs: its id, its tags, its position. */
export interface CaseKey {
  readonly id: string;
  readonly tags: readonly string[];
  /** The case's position in the cases file, from 0. */
  readonly index: number;
}

/** A case has reference_sql. */
export const HAS_REFERENCE_SQL = 1;
/** A case expects database changes (db_change, db_unchanged or db_no_change). */
export const WANTS_DB = 2;
/** A case names its database (db:). */
export const NAMES_DB = 4;

/**
 * Cases handed out one at a time, in order, as a run takes them.
 *
 * @example
 * ```ts
 * import { type CaseFeed, defineCase } from "../../mod.ts";
 * const cases = [defineCase({ question: "Hi?" })];
 * let k = 0;
 * const feed: CaseFeed = { length: cases.length, next: () => cases[k++], close() {} };
 * feed.next()?.id; // "hi"
 * ```
 */
export interface CaseFeed {
  /** How many cases it hands out. */
  readonly length: number;
  /**
   * The next case.
   *
   * @returns the case, or undefined after the last
   * @throws {CasesFileError} when the file changed since it was validated
   */
  next(): TestCase | undefined;
  /** Releases the file (at any point). */
  close(): void;
}

type PartialCase = Omit<TestCase, "id"> & { id?: string };

function flagsOf(c: PartialCase): number {
  let flags = 0;
  if (c.reference_sql !== undefined) flags |= HAS_REFERENCE_SQL;
  if (DB_EXPECT_KEYS.some((k) => c.expect?.[k] !== undefined && c.expect?.[k] !== false)) {
    flags |= WANTS_DB;
  }
  if (c.db !== undefined) flags |= NAMES_DB;
  return flags;
}

/** One line of a JSON lines file as a case, its mistakes at that line. */
function readLine(text: string, line: number, file: string): PartialCase {
  const raw = jsonlValue(text, line, file);
  try {
    return readCase(raw);
  } catch (e) {
    if (!(e instanceof CaseProblem)) throw e;
    throw new CasesFileError(file, { line }, e.message);
  }
}

/**
 * FNV-1a of a line's UTF-16 code units: the second reading takes a line
 * whose hash is unchanged as the line the first one validated.
 */
function lineHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

function openReader(file: string): LineReader {
  try {
    return new LineReader(file);
  } catch (e) {
    throw unreadableError(file, e);
  }
}

const NO_TAGS: readonly string[] = Object.freeze([]);

/**
 * The cases of a cases file: their keys and flags at once, the cases
 * themselves when asked for.
 */
export class CaseSource {
  /** The cases file. */
  readonly file: string;
  /** Every case's id, in file order. */
  readonly ids: readonly string[];
  /** Every case's tags, as an index into #tagSets. */
  readonly #tags: Uint32Array;
  /** Each set of tags the cases have, once. */
  readonly #tagSets: readonly (readonly string[])[];
  readonly #flags: Uint8Array;
  /** The line of each case (JSON lines), to find it again. */
  readonly #lines: Uint32Array | undefined;
  /** The hash of each case's line, to know it again. */
  readonly #hashes: Uint32Array | undefined;
  /** The cases, when the file is one document. */
  readonly #held: readonly TestCase[] | undefined;

  private constructor(
    file: string,
    ids: readonly string[],
    tags: TagTable,
    flags: Uint8Array,
    lines: Uint32Array | undefined,
    hashes: Uint32Array | undefined,
    held: readonly TestCase[] | undefined,
  ) {
    this.file = file;
    this.ids = ids;
    this.#tags = Uint32Array.from(tags.of);
    this.#tagSets = tags.sets;
    this.#flags = flags;
    this.#lines = lines;
    this.#hashes = hashes;
    this.#held = held;
  }

  /**
   * Reads and validates a cases file.
   *
   * @param file the cases file (.yaml, .yml, .json, .jsonl, or a benchmark's)
   * @returns its cases' source
   * @throws {CasesFileError} on any mistake, with the file and line
   */
  static async open(file: string): Promise<CaseSource> {
    if (!/\.jsonl$/i.test(file)) {
      const held = await loadCases(file);
      const tags = new TagTable();
      return new CaseSource(
        file,
        held.map((c) => c.id),
        tags.addAll(held),
        Uint8Array.from(held, flagsOf),
        undefined,
        undefined,
        held,
      );
    }
    return CaseSource.#scan(file);
  }

  /** The first reading of a JSON lines file: every case validated, its key kept. */
  static #scan(file: string): CaseSource {
    const reader = openReader(file);
    const ids: (string | undefined)[] = [];
    const slugs = new Map<number, string>();
    const tags = new TagTable();
    const flags: number[] = [];
    const lines: number[] = [];
    const hashes: number[] = [];
    const firstLine = new Map<string, number>();
    try {
      for (let text = reader.next(); text !== undefined; text = reader.next()) {
        if (text.trim() === "") continue;
        const c = readLine(text, reader.line, file);
        ids.push(c.id);
        if (c.id === undefined) slugs.set(ids.length - 1, slugify(c.question));
        tags.add(c.tags);
        flags.push(flagsOf(c));
        lines.push(reader.line);
        hashes.push(lineHash(text));
      }
    } finally {
      reader.close();
    }
    if (ids.length === 0) {
      throw new CasesFileError(
        file,
        { line: 1 },
        "no cases found; write a list of cases, each with a question",
      );
    }
    ids.forEach((id, i) => {
      if (id === undefined) return;
      if (firstLine.has(id)) throw duplicateIdError(file, id, lines[i], firstLine.get(id));
      firstLine.set(id, lines[i]!);
    });
    const given = ids.map((id, index): string => {
      if (id !== undefined) return id;
      const slug = freeSlug(slugs.get(index)!, firstLine);
      firstLine.set(slug, 0);
      return slug;
    });
    return new CaseSource(
      file,
      given,
      tags,
      Uint8Array.from(flags),
      Uint32Array.from(lines),
      Uint32Array.from(hashes),
      undefined,
    );
  }

  /**
   * Every case's id, tags and position, for choosing cases: objects made
   * for the choice, to be dropped once it is made.
   *
   * @returns the keys, in file order
   */
  keys(): CaseKey[] {
    return this.ids.map((id, index) => ({ id, tags: this.#tagSets[this.#tags[index]!]!, index }));
  }

  /**
   * The positions among `positions` whose case has a flag (or, with
   * `without`, has the one and not the other).
   *
   * @param positions positions in the file, ascending
   * @param flag the flag the cases have
   * @param without a flag they do not have
   * @returns those positions
   */
  having(positions: ArrayLike<number>, flag: number, without = 0): number[] {
    const out: number[] = [];
    for (let k = 0; k < positions.length; k++) {
      const f = this.#flags[positions[k]!]!;
      if ((f & flag) !== 0 && (f & without) === 0) out.push(positions[k]!);
    }
    return out;
  }

  /**
   * Whether the case at `index` has a flag.
   *
   * @param index the case's position
   * @param flag {@link HAS_REFERENCE_SQL}, {@link WANTS_DB} or {@link NAMES_DB}
   * @returns true when it has
   */
  has(index: number, flag: number): boolean {
    return (this.#flags[index]! & flag) !== 0;
  }

  /**
   * The cases at these positions, handed out as they are asked for.
   *
   * @param positions positions in the file, ascending
   * @returns the feed
   */
  feed(positions: ArrayLike<number>): CaseFeed {
    const held = this.#held;
    let k = 0;
    if (held !== undefined) {
      return {
        length: positions.length,
        next: () => k < positions.length ? held[positions[k++]!] : undefined,
        close: () => {},
      };
    }
    const lines = this.#lines!;
    const hashes = this.#hashes!;
    const ids = this.ids;
    const file = this.file;
    let reader: LineReader | undefined;
    let closed = false;
    const close = () => {
      if (!closed && reader !== undefined) reader.close();
      closed = true;
    };
    return {
      length: positions.length,
      next: (): TestCase | undefined => {
        if (k >= positions.length || closed) {
          close();
          return undefined;
        }
        const index = positions[k++]!;
        const line = lines[index]!;
        reader ??= openReader(file);
        let text = reader.next();
        while (text !== undefined && reader.line < line) text = reader.next();
        const id = ids[index]!;
        // The line the first reading validated, unless the file changed.
        const c = text === undefined || lineHash(text) !== hashes[index]
          ? undefined
          : caseFrom(JSON.parse(text) as CaseFields);
        if (c === undefined || (c.id ?? id) !== id) {
          close();
          throw new CasesFileError(
            file,
            { line },
            `the file changed during the run (case "${id}" was on this line); run again once it is written`,
          );
        }
        const testCase: TestCase = c.id === undefined ? { ...c, id } : c as TestCase;
        rememberLine(testCase, line);
        return testCase;
      },
      close,
    };
  }

  /**
   * The cases at these positions, all at once (for what needs them all).
   *
   * @param positions positions in the file, ascending
   * @returns the cases
   */
  cases(positions: ArrayLike<number>): TestCase[] {
    const feed = this.feed(positions);
    const out: TestCase[] = [];
    try {
      for (let c = feed.next(); c !== undefined; c = feed.next()) out.push(c);
    } finally {
      feed.close();
    }
    return out;
  }
}

/** The cases' tags: an index a case into the sets of tags, each set once. */
class TagTable {
  readonly sets: (readonly string[])[] = [NO_TAGS];
  readonly of: number[] = [];
  readonly #seen = new Map<string, number>();

  add(tags: readonly string[]): void {
    const key = `${tags.length}\u0000${tags.join("\u0000")}`;
    let at = tags.length === 0 ? 0 : this.#seen.get(key);
    if (at === undefined) {
      at = this.sets.push(Object.freeze([...tags])) - 1;
      this.#seen.set(key, at);
    }
    this.of.push(at);
  }

  addAll(cases: readonly { readonly tags: readonly string[] }[]): this {
    for (const c of cases) this.add(c.tags);
    return this;
  }
}

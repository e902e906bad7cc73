/**
 * Damaged databases for tests/damaged_files_test.ts and bench/damaged_sweep.ts:
 * valid files made from SQL, then damaged one invariant at a time (a byte
 * edit each, found with the file reader's own page parser). And what
 * SQLite itself reads from a file (of these, or of SQLite's own damaged
 * test databases, tests/sqlite_dumps.ts):
 * each of its tables read whole (`SELECT ... WHERE 1`, so that no raw copy
 * of records is made) into a fresh database of the same schema, or the
 * tables it cannot read.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { spawnSync } from "node:child_process";
import { PageSource } from "../lib/sqlite_format/page_source.ts";
import { BtreePage, openBounds, u32 } from "../lib/sqlite_format/btree_page.ts";
import { END, TreeWalk } from "../lib/sqlite_format/tree_walk.ts";
import { readSchemaRows } from "../lib/sqlite_format/schema_rows.ts";

/** One variant of the valid database: its page size and auto_vacuum mode. */
export interface Variant {
  readonly pageSize: number;
  readonly autoVacuum: "none" | "full";
}

/** A valid file's pages, to find what to damage. */
export class Model {
  readonly file: string;
  readonly bytes: Buffer;
  readonly pageSize: number;
  readonly usable: number;
  readonly pages: number;
  readonly #roots: Map<string, number>;

  constructor(file: string) {
    this.file = file;
    this.bytes = fs.readFileSync(file);
    const src = PageSource.open(file);
    try {
      this.pageSize = src.pageSize;
      this.usable = src.usable;
      this.pages = src.pages;
      this.#roots = new Map(readSchemaRows(src, null).map((r) => [r.name, r.rootpage]));
    } finally {
      src.close();
    }
  }

  root(name: string): number {
    return this.#roots.get(name)!;
  }

  /** The offset of page `n` in the file. */
  at(n: number): number {
    return (n - 1) * this.pageSize;
  }

  /** A tree's interior pages (root first, depth by depth) and leaves, in key order. */
  tree(name: string, kind: "table" | "index" = "table"): { interior: number[]; leaves: number[] } {
    const src = PageSource.open(this.file);
    try {
      const walk = new TreeWalk(src, this.root(name), kind, null, "none");
      const leaves: number[] = [];
      for (let p = walk.next(); p !== END; p = walk.next()) if (p > 0) leaves.push(p);
      const interior: number[] = [];
      const buf = new Uint8Array(this.pageSize);
      const queue = [this.root(name)];
      while (queue.length > 0) {
        const n = queue.shift()!;
        src.read(n, buf);
        const type = buf[n === 1 ? 100 : 0];
        if (type !== 0x05 && type !== 0x02) continue;
        interior.push(n);
        const page = new BtreePage(src);
        page.parse(n, buf, 0, kind, null, false);
        for (let i = 0; i < page.count; i++) queue.push(page.child[i]!);
        queue.push(page.right);
      }
      return { interior, leaves };
    } finally {
      src.close();
    }
  }

  /** Page `n` parsed (a copy of its bytes). */
  parsed(n: number, kind: "table" | "index" = "table"): BtreePage {
    const src = PageSource.open(this.file);
    try {
      const buf = new Uint8Array(this.pageSize);
      src.read(n, buf);
      const page = new BtreePage(src);
      page.parse(n, buf, 0, kind, openBounds(), null);
      return page;
    } finally {
      src.close();
    }
  }

  /** Where cell `i` of page `n` starts in the file (its pointer's value). */
  cell(n: number, i: number, interior = false): number {
    const h = this.at(n) + (n === 1 ? 100 : 0) + (interior ? 12 : 8) + 2 * i;
    return this.at(n) + this.bytes.readUInt16BE(h);
  }

  /** The file offset of cell `i`'s pointer on page `n`. */
  pointer(n: number, i: number, interior = false): number {
    return this.at(n) + (n === 1 ? 100 : 0) + (interior ? 12 : 8) + 2 * i;
  }

  /** The overflow chain (page numbers) from `first`. */
  chain(first: number): number[] {
    const out: number[] = [];
    for (let p = first; p !== 0 && out.length < this.pages; p = u32(this.bytes, this.at(p))) {
      out.push(p);
    }
    return out;
  }
}

/** Rows of each table, and which of them have payloads that spill. */
function fill(variant: Variant): string {
  const p = variant.pageSize;
  // Enough rows for an interior level at 64 KiB pages too; a few rows
  // whose BLOB spills to three overflow pages and more.
  const rows = p >= 65536 ? 6000 : p >= 4096 ? 1500 : 800;
  return `PRAGMA page_size = ${p}; PRAGMA auto_vacuum = ${variant.autoVacuum};
    CREATE TABLE t(id INTEGER PRIMARY KEY, n, v TEXT, big BLOB);
    CREATE INDEX t_v ON t(v);
    CREATE TABLE k(name TEXT PRIMARY KEY, score REAL);
    CREATE TABLE u(id INTEGER PRIMARY KEY, w);
    CREATE TABLE wr(name TEXT PRIMARY KEY, score REAL) WITHOUT ROWID;
    CREATE TABLE junk(x);
    BEGIN;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows})
    INSERT INTO t SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE i * 7 END,
      printf('value %05d %s', i, substr('abcdefghijklmnopqrstuvwxyz', 1 + i % 20, 5)),
      CASE WHEN i % ${Math.floor(rows / 4)} = 7 THEN CAST(printf('%.*c', ${
    3 * p + 100
  }, 'b') AS BLOB) END
    FROM c;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 300)
    INSERT INTO k SELECT printf('name %04d', i), i / 4.0 FROM c;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 40)
    INSERT INTO u SELECT i, 'w' || i FROM c;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows})
    INSERT INTO wr SELECT printf('key %05d', i) || CASE WHEN i % ${
    Math.floor(rows / 3)
  } = 5 THEN printf('%.*c', ${2 * p}, 'k') ELSE '' END, i / 8.0 FROM c;
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows})
    INSERT INTO junk SELECT zeroblob(200) FROM c;
    COMMIT;
    DROP TABLE junk;`;
}

/** Writes the valid database of `variant` at `file`. */
export function validFile(file: string, variant: Variant): string {
  fs.rmSync(file, { force: true });
  const db = new DatabaseSync(file);
  db.exec("PRAGMA synchronous = OFF");
  db.exec(fill(variant));
  db.close();
  return file;
}

/** The same database with a few rows changed: the other side of the diffs. */
export function changedCopy(from: string, to: string): string {
  fs.copyFileSync(from, to);
  const db = new DatabaseSync(to);
  db.exec("PRAGMA synchronous = OFF");
  db.exec(`UPDATE t SET v = v || '!' WHERE id % 97 = 0; DELETE FROM t WHERE id % 211 = 5;
    INSERT INTO t(id, v) VALUES (100000, 'new'); UPDATE k SET score = -1 WHERE rowid % 50 = 0;
    UPDATE wr SET score = -2 WHERE score * 8 % 60 = 0; DELETE FROM wr WHERE score * 8 % 151 = 3;`);
  db.close();
  return to;
}

/** Swaps the first and the last of `leaves` (false when there are fewer than `least`). */
function swapEnds(m: Model, leaves: readonly number[], least: number): boolean {
  if (leaves.length < least) return false;
  const [a, b] = [leaves[0]!, leaves[leaves.length - 1]!];
  const x = Buffer.from(m.bytes.subarray(m.at(a), m.at(a) + m.pageSize));
  m.bytes.copy(m.bytes, m.at(a), m.at(b), m.at(b) + m.pageSize);
  x.copy(m.bytes, m.at(b));
  return true;
}

/** One kind of damage: what it breaks, and the edit (false when the file has nothing to break so). */
export interface Damage {
  readonly name: string;
  readonly apply: (m: Model) => boolean;
}

const leaves = (m: Model) => m.tree("t").leaves;
const interior = (m: Model) => m.tree("t").interior;

/** The first leaf of t with a cell whose payload spills, and that cell. */
function spilling(m: Model): { leaf: number; cells: number[] } | null {
  for (const n of leaves(m)) {
    const page = m.parsed(n);
    const cells = [...Array(page.count).keys()].filter((i) => page.overflow[i] !== 0);
    if (cells.length > 0) return { leaf: n, cells };
  }
  return null;
}

/** Every cell of t's leaves whose payload spills: [leaf, cell, first overflow page]. */
function allSpilling(m: Model): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const n of leaves(m)) {
    const page = m.parsed(n);
    for (let i = 0; i < page.count; i++) {
      if (page.overflow[i] !== 0) out.push([n, i, page.overflow[i]!]);
    }
  }
  return out;
}

/** The offset of a cell's first overflow page number, in the file. */
function overflowField(m: Model, leaf: number, i: number): number {
  const page = m.parsed(leaf);
  return m.at(leaf) + page.start[i]! + page.local[i]!;
}

/** Where the serial types of cell `i` of table leaf `n` start, and the header's end. */
function serials(m: Model, n: number, i: number): { at: number; end: number } {
  const page = m.parsed(n);
  const start = m.at(n) + page.start[i]!;
  const hs = m.bytes[start]!;
  return { at: start + 1, end: start + hs };
}

/** A middle leaf of t. */
const middle = (m: Model) => {
  const l = leaves(m);
  return l[Math.floor(l.length / 2)]!;
};

/** The kinds of damage, one invariant each. */
export const DAMAGES: readonly Damage[] = [
  {
    name: "two leaf pages of t swapped",
    apply: (m) => swapEnds(m, leaves(m), 3),
  },
  {
    name: "a duplicate rowid in a leaf",
    apply(m) {
      const n = middle(m);
      const p0 = m.cell(n, 0);
      const p1 = m.cell(n, 1);
      // Payload size varint, then the rowid varint: copy cell 0's rowid over cell 1's (same length).
      const skip = (at: number) => {
        while (m.bytes[at]! >= 0x80) at++;
        return at + 1;
      };
      const r0 = skip(p0);
      const r1 = skip(p1);
      const len = skip(r0) - r0;
      if (skip(r1) - r1 !== len) return false;
      m.bytes.copy(m.bytes, r1, r0, r0 + len);
      return true;
    },
  },
  {
    name: "two cells of a leaf out of rowid order",
    apply(m) {
      const n = middle(m);
      const a = m.pointer(n, 1);
      const b = m.pointer(n, 2);
      const x = m.bytes.readUInt16BE(a);
      m.bytes.writeUInt16BE(m.bytes.readUInt16BE(b), a);
      m.bytes.writeUInt16BE(x, b);
      return true;
    },
  },
  {
    name: "a reserved serial type (10) in place of a NULL",
    apply(m) {
      for (const n of leaves(m)) {
        const page = m.parsed(n);
        for (let i = 0; i < page.count; i++) {
          const { at, end } = serials(m, n, i);
          // Column n (the second): serial type 0 in every third row.
          if (at + 1 < end && m.bytes[at + 1] === 0) {
            m.bytes[at + 1] = 10;
            return true;
          }
        }
      }
      return false;
    },
  },
  {
    name: "a reserved serial type (11) in place of a NULL",
    apply(m) {
      const n = leaves(m).at(-1)!;
      const page = m.parsed(n);
      for (let i = page.count - 1; i >= 0; i--) {
        const { at, end } = serials(m, n, i);
        if (at + 1 < end && m.bytes[at + 1] === 0) {
          m.bytes[at + 1] = 11;
          return true;
        }
      }
      return false;
    },
  },
  {
    name: "serial types that do not add up to the record",
    apply(m) {
      const n = middle(m);
      const { at, end } = serials(m, n, 3);
      // Column v's text type: one byte longer than the record holds.
      for (let p = at; p < end; p++) {
        if (m.bytes[p]! >= 13 && m.bytes[p]! % 2 === 1 && m.bytes[p]! < 0x7f) {
          m.bytes[p]! += 2;
          return true;
        }
      }
      return false;
    },
  },
  {
    name: "a record header larger than its record",
    apply(m) {
      const n = middle(m);
      const page = m.parsed(n);
      m.bytes[m.at(n) + page.start[2]!] = 0x7f;
      return true;
    },
  },
  {
    name: "an interior page that lists the same child twice",
    apply(m) {
      const n = interior(m)[0]!;
      const a = m.cell(n, 0, true);
      const b = m.cell(n, 1, true);
      m.bytes.copy(m.bytes, b, a, a + 4);
      return true;
    },
  },
  {
    name: "an interior page's child past the end of the file",
    apply(m) {
      const n = interior(m)[0]!;
      m.bytes.writeUInt32BE(m.pages + 50, m.cell(n, 0, true));
      return true;
    },
  },
  {
    name: "an interior page's child that is another table's page",
    apply(m) {
      const n = interior(m)[0]!;
      m.bytes.writeUInt32BE(m.root("u"), m.cell(n, 0, true));
      return true;
    },
  },
  {
    name: "an interior page whose dividers are out of order",
    apply(m) {
      const n = interior(m)[0]!;
      const a = m.pointer(n, 0, true);
      const b = m.pointer(n, 1, true);
      const x = m.bytes.readUInt16BE(a);
      m.bytes.writeUInt16BE(m.bytes.readUInt16BE(b), a);
      m.bytes.writeUInt16BE(x, b);
      return true;
    },
  },
  {
    name: "an interior page turned into a leaf",
    apply(m) {
      const n = interior(m).at(-1)!;
      m.bytes[m.at(n) + (n === 1 ? 100 : 0)] = 0x0d;
      return true;
    },
  },
  {
    name: "a leaf of t with an index page's type byte",
    apply(m) {
      m.bytes[m.at(middle(m))] = 0x0a;
      return true;
    },
  },
  {
    name: "a leaf of t with a type byte that is no b-tree page",
    apply(m) {
      m.bytes[m.at(middle(m))] = 0x07;
      return true;
    },
  },
  {
    name: "a leaf's cell count that does not fit the page",
    apply(m) {
      m.bytes.writeUInt16BE(0xfff0, m.at(middle(m)) + 3);
      return true;
    },
  },
  {
    name: "a leaf's cell count one less than its cells",
    apply(m) {
      const at = m.at(middle(m)) + 3;
      m.bytes.writeUInt16BE(m.bytes.readUInt16BE(at) - 1, at);
      return true;
    },
  },
  {
    name: "a cell pointer past the end of the page",
    apply(m) {
      m.bytes.writeUInt16BE(m.usable - 1, m.pointer(middle(m), 1));
      return true;
    },
  },
  {
    name: "a cell pointer into the page header",
    apply(m) {
      m.bytes.writeUInt16BE(2, m.pointer(middle(m), 1));
      return true;
    },
  },
  {
    name: "a cell content area that starts past the page",
    apply(m) {
      m.bytes.writeUInt16BE(m.usable + 1 > 65535 ? 1 : m.usable + 1, m.at(middle(m)) + 5);
      return true;
    },
  },
  {
    name: "a zeroed leaf",
    apply(m) {
      m.bytes.fill(0, m.at(middle(m)), m.at(middle(m)) + m.pageSize);
      return true;
    },
  },
  {
    name: "an overflow chain shared by two cells",
    apply(m) {
      const all = allSpilling(m);
      if (all.length < 2) return false;
      const [[, , first], [leaf, i]] = [all[0]!, all[1]!];
      m.bytes.writeUInt32BE(first, overflowField(m, leaf, i));
      return true;
    },
  },
  {
    name: "an overflow chain that loops",
    apply(m) {
      const s = spilling(m);
      if (s === null) return false;
      const chain = m.chain(m.bytes.readUInt32BE(overflowField(m, s.leaf, s.cells[0]!)));
      if (chain.length < 2) return false;
      m.bytes.writeUInt32BE(chain[0]!, m.at(chain.at(-1)!));
      return true;
    },
  },
  {
    name: "an overflow chain that ends too soon",
    apply(m) {
      const s = spilling(m);
      if (s === null) return false;
      const chain = m.chain(m.bytes.readUInt32BE(overflowField(m, s.leaf, s.cells[0]!)));
      if (chain.length < 2) return false;
      m.bytes.writeUInt32BE(0, m.at(chain[0]!));
      return true;
    },
  },
  {
    name: "an overflow chain past the end of the file",
    apply(m) {
      const s = spilling(m);
      if (s === null) return false;
      m.bytes.writeUInt32BE(m.pages + 9, overflowField(m, s.leaf, s.cells[0]!));
      return true;
    },
  },
  {
    name: "the freelist count in the header one too many",
    apply(m) {
      if (m.bytes.readUInt32BE(36) === 0) return false;
      m.bytes.writeUInt32BE(m.bytes.readUInt32BE(36) + 1, 36);
      return true;
    },
  },
  {
    name: "a free page that is also a leaf of t",
    apply(m) {
      const trunk = m.bytes.readUInt32BE(32);
      if (trunk === 0 || m.bytes.readUInt32BE(m.at(trunk) + 4) === 0) return false;
      m.bytes.writeUInt32BE(middle(m), m.at(trunk) + 8);
      return true;
    },
  },
  {
    name: "a freelist trunk that lists more pages than a page holds",
    apply(m) {
      const trunk = m.bytes.readUInt32BE(32);
      if (trunk === 0) return false;
      m.bytes.writeUInt32BE(m.usable, m.at(trunk) + 4);
      return true;
    },
  },
  {
    name: "two tables sharing one b-tree (sqlite_schema's root page)",
    apply(m) {
      // u's rootpage, a 1-byte integer in its schema record, set to t's.
      const src = PageSource.open(m.file);
      try {
        const page = new BtreePage(src);
        const buf = new Uint8Array(m.pageSize);
        src.read(1, buf);
        page.parse(1, buf, 0, "table", null, null);
        for (let i = 0; i < page.count; i++) {
          const start = page.start[i]!;
          const hs = buf[start]!;
          const types = [...buf.subarray(start + 1, start + hs)];
          const width = (
            t: number,
          ) => (t >= 12 ? (t - 12) >> 1 : [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][t]!);
          let at = start + hs;
          const name = new TextDecoder().decode(
            buf.subarray(at + width(types[0]!), at + width(types[0]!) + width(types[1]!)),
          );
          if (name !== "u") continue;
          at += width(types[0]!) + width(types[1]!) + width(types[2]!);
          if (types[3] !== 1 || m.root("t") > 127) return false;
          m.bytes[at] = m.root("t");
          return true;
        }
        return false;
      } finally {
        src.close();
      }
    },
  },
  {
    name: "the header's page count past the end of the file",
    apply(m) {
      m.bytes.writeUInt32BE(m.pages + 5, 28);
      m.bytes.copy(m.bytes, 92, 24, 28);
      return true;
    },
  },
  {
    name: "two leaves of index t_v swapped",
    apply: (m) => swapEnds(m, m.tree("t_v", "index").leaves, 3),
  },
  {
    name: "two leaves of table k's key index swapped",
    apply: (m) => swapEnds(m, m.tree("sqlite_autoindex_k_1", "index").leaves, 2),
  },
  {
    name: "two leaves of WITHOUT ROWID table wr swapped",
    apply: (m) => swapEnds(m, m.tree("wr", "index").leaves, 2),
  },
  {
    name: "a pointer-map entry that names the wrong parent",
    apply(m) {
      if (m.bytes.readUInt32BE(52) === 0) return false;
      // Page 2 is the first pointer-map page; its first entry is page 3's.
      const at = m.at(2);
      m.bytes.writeUInt32BE(m.bytes.readUInt32BE(at + 1) + 1, at + 1);
      return true;
    },
  },
];

/** What SQLite reads from a file: the tables it reads whole, the ones it cannot, and a copy of what it read. */
export interface SqliteReading {
  /** Null when SQLite cannot open the file or read its schema. */
  readonly copy: string | null;
  /** Tables SQLite could not read whole (lower case). */
  readonly unreadable: ReadonlySet<string>;
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * Reads `file` with SQLite (the runtime's own, node:sqlite) table by table,
 * and writes what it read into `copy`: the same schema, each readable
 * table's rows copied by SQLite itself (`INSERT INTO copy.t SELECT rowid,
 * * FROM t LIMIT -1`: every value decoded and written again, never a raw
 * copy of records, and never through JavaScript), so that `copy` holds
 * exactly what SQLite reads. Virtual tables get their schema rows as they
 * are (their rows are in their shadow tables).
 *
 * @param file the damaged file (a scratch copy: it is opened read-write, and only read)
 * @param copy where to write the copy (its folder must exist)
 * @returns the reading
 */
export function sqliteReading(file: string, copy: string): SqliteReading {
  const unreadable = new Set<string>();
  let db: DatabaseSync;
  let schema: { type: string; name: string; sql: string | null }[];
  let encoding: string;
  try {
    db = new DatabaseSync(file);
    schema = db.prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY rowid")
      .all() as typeof schema;
    encoding = String(Object.values(db.prepare("PRAGMA encoding").get()!)[0]);
  } catch {
    return { copy: null, unreadable };
  }
  const virtual = (r: { sql: string | null }) => /^\s*CREATE\s+VIRTUAL/i.test(r.sql ?? "");
  const tables = schema.filter((r) =>
    r.type === "table" && !/^sqlite_/i.test(r.name) && !virtual(r)
  );
  db.close();
  fs.rmSync(copy, { force: true });
  // The copy is the main database and the damaged file is attached: rows
  // go into tables the copy's connection parsed before any virtual table
  // was in sight (defensive connections keep a virtual table's shadow
  // tables read-only, in whichever schema they are).
  const out = new DatabaseSync(copy);
  try {
    out.exec(
      `PRAGMA encoding = '${encoding}'; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF`,
    );
    for (const t of tables) out.exec(t.sql!);
    out.prepare("SELECT count(*) FROM sqlite_schema").get();
    try {
      out.exec(`ATTACH ${quote(file).replaceAll('"', "'")} AS damaged`);
    } catch {
      // SQLite refuses to attach it (an encoding it reads alone as UTF-8).
      return { copy: null, unreadable };
    }
    const sequence = schema.some((r) => r.name === "sqlite_sequence");
    for (
      const t of [
        ...tables,
        ...(sequence ? [{ type: "table", name: "sqlite_sequence", sql: null }] : []),
      ]
    ) {
      const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(t.sql ?? "") || t.name === "sqlite_sequence";
      try {
        const cols = out.prepare(`SELECT * FROM damaged.${quote(t.name)} LIMIT 0`).columns()
          .map((c) => quote(c.name!));
        const list = [...(withoutRowid ? [] : ["rowid"]), ...cols].join(", ");
        if (t.name === "sqlite_sequence") out.exec("DELETE FROM main.sqlite_sequence");
        out.exec(
          `INSERT INTO main.${quote(t.name)}(${list}) SELECT ${list} FROM damaged.${
            quote(t.name)
          } LIMIT -1`,
        );
      } catch {
        unreadable.add(t.name.toLowerCase());
      }
    }
    out.exec("DETACH damaged");
    for (const r of schema) {
      if ((r.type === "index" || r.type === "view" || r.type === "trigger") && r.sql !== null) {
        try {
          out.exec(r.sql);
        } catch {
          // An index on an unreadable table, or a damaged statement: left out.
        }
      }
    }
  } finally {
    out.close();
  }
  // Virtual tables: their schema rows as they are, by the sqlite3 shell
  // (node:sqlite's connections are defensive: sqlite_schema is read-only).
  const virtuals = schema.filter((r) => r.type === "table" && virtual(r));
  if (virtuals.length > 0) {
    const text = (v: string | null) => (v === null ? "NULL" : `'${v.replaceAll("'", "''")}'`);
    const rows = virtuals.map((r) =>
      `('table', ${text(r.name)}, ${text(r.name)}, 0, ${text(r.sql)})`
    );
    const r = spawnSync("sqlite3", [
      copy,
      `PRAGMA writable_schema = ON; INSERT INTO sqlite_schema(type, name, tbl_name, rootpage, sql) VALUES ${
        rows.join(", ")
      };`,
    ], { encoding: "utf8" });
    if (r.status !== 0) {
      throw new Error(`sqlite3 could not copy the virtual tables' schema rows: ${r.stderr}`);
    }
  }
  return { copy, unreadable };
}

/** Writes `bytes` at `dir/name` (creating `dir`) and returns the path. */
export function writeFile(dir: string, name: string, bytes: Uint8Array): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/**
 * A deliberately crude reference counterexample searcher, to measure the
 * real search against: random rows made of the given data's own values, the
 * queries' constants and their neighbours (±1), and NULLs, in databases of
 * a few sizes (1, 2, 3, 5 or 8 rows per table), foreign keys pointing at
 * the rows made for the parent. No strategy, no shrinking. Built on
 * node:sqlite (another SQLite build than the product's), in memory.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { compareRows } from "../lib/compare/rows.ts";

type Value = string | number | bigint | null;

interface Column {
  readonly name: string;
  readonly type: string;
  readonly notNull: boolean;
  readonly pool: readonly Value[];
}

interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  /** column index -> [parent table, parent column] */
  readonly fks: ReadonlyMap<number, readonly [string, string]>;
}

/** What one search found. */
export interface RandomResult {
  readonly found: boolean;
  readonly tried: number;
  readonly seconds: number;
}

class Lcg {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    this.#s = (Math.imul(this.#s, 1664525) + 1013904223) >>> 0;
    return this.#s / 4294967296;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
}

function constants(sql: string[]): { numbers: number[]; strings: string[] } {
  const numbers = new Set<number>();
  const strings = new Set<string>();
  for (const q of sql) {
    for (const m of q.matchAll(/'((?:[^']|'')*)'/g)) strings.add(m[1]!.replaceAll("''", "'"));
    const code = q.replace(/'(?:[^']|'')*'/g, "''");
    for (const m of code.matchAll(/(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])/g)) {
      const n = Number(m[1]);
      numbers.add(n).add(n - 1).add(n + 1);
    }
  }
  return { numbers: [...numbers], strings: [...strings] };
}

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function readTables(given: DatabaseSync, sql: string[]): Table[] {
  const all = (given.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
  ).all() as { name: string }[]).map((r) => r.name);
  const text = sql.join(" ").toLowerCase();
  const wanted = new Set(all.filter((t) => new RegExp(`\\b${t.toLowerCase()}\\b`).test(text)));
  // parents too, so the foreign keys can be met
  const fkOf = (t: string) =>
    given.prepare(`PRAGMA foreign_key_list(${ident(t)})`).all() as {
      table: string;
      from: string;
      to: string | null;
    }[];
  for (let grew = true; grew;) {
    grew = false;
    for (const t of [...wanted]) {
      for (const fk of fkOf(t)) {
        const p = all.find((x) => x.toLowerCase() === fk.table.toLowerCase());
        if (p !== undefined && !wanted.has(p)) {
          wanted.add(p);
          grew = true;
        }
      }
    }
  }
  // parents first
  const ordered: string[] = [];
  const visit = (t: string, path: Set<string>): void => {
    if (ordered.includes(t) || path.has(t)) return;
    path.add(t);
    for (const fk of fkOf(t)) {
      const p = all.find((x) => x.toLowerCase() === fk.table.toLowerCase());
      if (p !== undefined && wanted.has(p)) visit(p, path);
    }
    ordered.push(t);
  };
  for (const t of all) if (wanted.has(t)) visit(t, new Set());
  return ordered.map((t) => {
    const info = given.prepare(`PRAGMA table_info(${ident(t)})`).all() as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }[];
    const fks = new Map<number, readonly [string, string]>();
    for (const fk of fkOf(t)) {
      const i = info.findIndex((c) => c.name === fk.from);
      const parent = given.prepare(`PRAGMA table_info(${ident(fk.table)})`).all() as {
        name: string;
        pk: number;
      }[];
      const to = fk.to ?? parent.find((c) => c.pk === 1)?.name;
      if (i >= 0 && to !== undefined) fks.set(i, [fk.table, to]);
    }
    return {
      name: t,
      fks,
      columns: info.map((c) => ({
        name: c.name,
        type: c.type.toUpperCase(),
        notNull: c.notnull === 1 && c.pk === 0,
        pool: (given.prepare(
          `SELECT DISTINCT ${ident(c.name)} AS v FROM (SELECT ${ident(c.name)} FROM ${
            ident(t)
          } LIMIT 500) WHERE ${ident(c.name)} IS NOT NULL LIMIT 30`,
        ).all() as { v: Value }[]).map((r) => r.v),
      })),
    };
  });
}

function rows(db: DatabaseSync, sql: string): { columns: string[]; rows: Value[][] } {
  const stmt = db.prepare(sql);
  stmt.setReturnArrays(true);
  const columns = stmt.columns().map((c) => c.name);
  return { columns, rows: stmt.all() as unknown as Value[][] };
}

/**
 * Searches with random rows.
 *
 * @param file the given database
 * @param reference the reference query
 * @param candidate the query under test
 * @param options row order, budget, seconds, seed
 * @returns whether a database that tells them apart was found
 */
export function randomSearch(
  file: string,
  reference: string,
  candidate: string,
  options: { ordered?: boolean; budget?: number; seconds?: number; seed?: number } = {},
): RandomResult {
  const t0 = performance.now();
  const budget = options.budget ?? 300;
  const deadline = t0 + (options.seconds ?? 10) * 1000;
  const given = new DatabaseSync(file, { readOnly: true });
  let tables: Table[];
  try {
    tables = readTables(given, [reference, candidate]);
  } finally {
    given.close();
  }
  const db = new DatabaseSync(":memory:");
  const schema = new DatabaseSync(file, { readOnly: true });
  for (const t of tables) {
    const sql = (schema.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(t.name) as {
      sql: string;
    }).sql;
    db.exec(sql);
  }
  schema.close();
  db.exec("PRAGMA foreign_keys = ON");
  const { numbers, strings } = constants([reference, candidate]);
  const random = new Lcg(options.seed ?? 1);
  const opts = { ordered: options.ordered ?? false, precision: 2 };
  let tried = 0;
  try {
    while (tried < budget && performance.now() < deadline) {
      tried++;
      const n = random.pick([1, 2, 3, 5, 8]);
      const made = new Map<string, Value[][]>();
      db.exec("BEGIN");
      try {
        for (const t of tables) {
          const insert = db.prepare(
            `INSERT INTO ${ident(t.name)} VALUES (${t.columns.map(() => "?").join(", ")})`,
          );
          const own: Value[][] = [];
          for (let r = 0; r < n; r++) {
            const row = t.columns.map((c, i): Value => {
              const fk = t.fks.get(i);
              if (fk !== undefined && random.next() < 0.9) {
                const parent = tables.find((p) => p.name.toLowerCase() === fk[0].toLowerCase());
                const k = parent?.columns.findIndex((pc) => pc.name === fk[1]) ?? -1;
                const pr = made.get(parent?.name ?? "") ?? [];
                if (k >= 0 && pr.length > 0) return random.pick(pr)[k]!;
              }
              const roll = random.next();
              if (!c.notNull && roll < 0.1) return null;
              const numeric = /INT|REAL|NUM|DEC|FLOA|DOUB/.test(c.type);
              if (roll < 0.4) {
                const from: readonly Value[] = numeric ? numbers : strings;
                if (from.length > 0) return random.pick(from);
              }
              if (c.pool.length > 0) return random.pick(c.pool);
              return numeric ? r + 1 : `v${r}`;
            });
            try {
              insert.run(...row);
              own.push(row);
            } catch {
              // refused by a constraint
            }
          }
          made.set(t.name, own);
        }
        let a, b;
        try {
          a = rows(db, reference);
          b = rows(db, candidate);
        } catch {
          continue;
        }
        if (compareRows(b, a, opts)) continue;
        // kept only when it does not hang on row order
        db.exec("PRAGMA reverse_unordered_selects = ON");
        try {
          const a2 = rows(db, reference);
          const b2 = rows(db, candidate);
          if (compareRows(a2, a, opts) && compareRows(b2, b, opts)) {
            return { found: true, tried, seconds: (performance.now() - t0) / 1000 };
          }
        } finally {
          db.exec("PRAGMA reverse_unordered_selects = OFF");
        }
      } finally {
        db.exec("ROLLBACK");
      }
    }
    return { found: false, tried, seconds: (performance.now() - t0) / 1000 };
  } finally {
    db.close();
  }
}

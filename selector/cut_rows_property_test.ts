/**
 * A property of every selector on every diff: cutting the rows a diff keeps
 * (`maxRows`, `maxBytes`) never changes the answer, it can only turn it into
 * "cannot tell"; and a selector asked while the diff runs answers exactly as
 * on the uncut diff. Random selectors (where, has_one, has_all, $count,
 * by_key, $and, $or, $not) on random pairs of real SQLite files, from seeds.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { makeDb, tempDir } from "../tests/fixtures.ts";
import { diffSqliteDatabases, streamSqliteDiff } from "../lib/diff/diff_sqlite.ts";
import { diffDatabaseDiffs } from "../lib/diff/diff_of_diffs.ts";
import type { DiffOptions } from "../lib/diff/options.ts";
import { explainMatch, watchSelectors } from "./explain.ts";
import { mulberry32 } from "../lib/counterexample/random.ts";

const dir = tempDir();
after(() => dir.cleanup());

const ROLES = ["a", "b", "c", null];

function sqlValue(v: string | number | null): string {
  return v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v}'`;
}

/** A table's rows before, and SQL that changes some of them. */
function tableSql(rnd: () => number, table: string): { create: string; change: string } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const n = 4 + Math.floor(rnd() * 20);
  const rows = Array.from(
    { length: n },
    (_, i) => `(${i + 1}, ${sqlValue(pick(ROLES))}, ${Math.floor(rnd() * 8)})`,
  );
  const create = `CREATE TABLE ${table} (id INTEGER PRIMARY KEY, role TEXT, n INTEGER);
    INSERT INTO ${table} VALUES ${rows.join(", ")};`;
  const change: string[] = [];
  for (let id = 1; id <= n; id++) {
    const r = rnd();
    if (r < 0.2) change.push(`DELETE FROM ${table} WHERE id = ${id};`);
    else if (r < 0.45) {
      change.push(`UPDATE ${table} SET role = ${sqlValue(pick(ROLES))} WHERE id = ${id};`);
    } else if (r < 0.6) {
      change.push(`UPDATE ${table} SET n = ${Math.floor(rnd() * 8)} WHERE id = ${id};`);
    }
  }
  const inserts = Math.floor(rnd() * 8);
  for (let i = 0; i < inserts; i++) {
    change.push(
      `INSERT INTO ${table} VALUES (${n + 1 + i}, ${sqlValue(pick(ROLES))}, ${
        Math.floor(rnd() * 8)
      });`,
    );
  }
  return { create, change: change.join("\n") };
}

/** A random where object on the columns id, role, n. */
function where(rnd: () => number, changed: boolean, depth = 0): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const r = rnd();
  if (depth < 1 && r < 0.1) return { $not: where(rnd, changed, depth + 1) };
  if (depth < 1 && r < 0.2) {
    return {
      [pick(["$and", "$or"])]: [where(rnd, changed, depth + 1), where(rnd, changed, depth + 1)],
    };
  }
  if (changed && r < 0.3) {
    return { [pick(["$before", "$after"])]: { role: pick(ROLES) } };
  }
  if (changed && r < 0.35) return { $changed_columns: pick(["role", "n", ["role", "n"]]) };
  const column = pick(["id", "role", "n"]);
  const value = column === "role" ? pick(ROLES) : Math.floor(rnd() * (column === "id" ? 30 : 8));
  const op = pick(["$eq", "$ne", "$in", "$gt", "$lte", "bare"]);
  if (op === "bare") return { [column]: value };
  if (op === "$in") return { [column]: { $in: [value, column === "role" ? pick(ROLES) : 3] } };
  if ((op === "$gt" || op === "$lte") && value === null) return { [column]: { $ne: value } };
  return { [column]: { [op]: value } };
}

function rowCriterion(rnd: () => number, kind: string): unknown {
  const changed = kind === "changed";
  const r = rnd();
  const count = () => {
    const n = Math.floor(rnd() * 4);
    return rnd() < 0.5 ? n : { [["$gte", "$lt", "$ne", "$gt"][Math.floor(rnd() * 4)]!]: n };
  };
  if (r < 0.15) return changed ? "role" : ["role"];
  if (r < 0.4) return { where: where(rnd, changed) };
  if (r < 0.55) return { $count: count() };
  if (r < 0.7) return { where: where(rnd, changed), $count: count() };
  if (r < 0.85) {
    return changed
      ? { has_all: ["role", "n"] }
      : { has_all: [where(rnd, false), where(rnd, false)] };
  }
  return changed ? { has_one: ["n"], where: where(rnd, true) } : { has_one: where(rnd, false) };
}

function selector(rnd: () => number, depth = 0): Record<string, unknown> {
  const r = rnd();
  if (depth < 2 && r < 0.15) return { $not: selector(rnd, depth + 1) };
  if (depth < 2 && r < 0.3) {
    return { [rnd() < 0.5 ? "$and" : "$or"]: [selector(rnd, depth + 1), selector(rnd, depth + 1)] };
  }
  const kinds = ["added", "removed", "changed"].filter(() => rnd() < 0.5);
  const rows: Record<string, unknown> = {};
  for (const k of kinds.length === 0 ? ["removed"] : kinds) rows[k] = rowCriterion(rnd, k);
  if (rnd() < 0.2) rows["by_key"] = { id: { $lte: Math.floor(rnd() * 30) } };
  if (rnd() < 0.2) {
    // A table's status alone: in a diff of cut diffs, whether its data changed is unproven.
    return { tables: { status: rnd() < 0.5 ? "changed" : "unchanged" } };
  }
  if (rnd() >= 0.3) return { rows };
  const name = rnd() < 0.5 ? "t" : "u";
  return {
    tables: rnd() < 0.5 ? { name } : { name, status: rnd() < 0.5 ? "changed" : "unchanged" },
    rows,
  };
}

const ALL: DiffOptions = { maxRows: 1_000_000, maxBytes: 1 << 30 };
const CUTS: [string, DiffOptions][] = [
  ["maxRows 0", { maxRows: 0 }],
  ["maxRows 1", { maxRows: 1 }],
  ["maxRows 3", { maxRows: 3 }],
  ["maxBytes 60", { maxRows: 1000, maxBytes: 60 }],
];
const SEEDS = 12;
let cannotTell = 0;
let decided = 0;
const SELECTORS = 12;

describe("a selector on a cut diff answers as on the whole diff, or cannot tell", () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`holds for seed ${seed}`, async () => {
      const rnd = mulberry32(seed);
      const t = tableSql(rnd, "t");
      const u = tableSql(rnd, "u");
      const base = `${t.create}\n${u.create}`;
      const before = makeDb(dir.file(`b${seed}.db`), base);
      fs.mkdirSync(dir.file(`agent${seed}`));
      fs.mkdirSync(dir.file(`ref${seed}`));
      const agent = makeDb(dir.file(`agent${seed}/after.db`), `${base}\n${t.change}\n${u.change}`);
      // The reference makes some of the same changes: the diff of diffs has both shared and own rows.
      const ref = makeDb(dir.file(`ref${seed}/after.db`), `${base}\n${t.change}`);
      const whole = await diffSqliteDatabases(before, agent, ALL);
      const wholeRef = await diffSqliteDatabases(before, ref, ALL);
      const wholeOwn = diffDatabaseDiffs(wholeRef, whole).afterOnly;
      const selectors = Array.from({ length: SELECTORS }, () => selector(rnd));
      const truths = selectors.map((s) => explainMatch(whole, s).matched);
      const owns = selectors.map((s) => explainMatch(wholeOwn, s).matched);
      truths.forEach((t, i) =>
        assert.notEqual(t, null, `the whole diff cannot tell ${JSON.stringify(selectors[i])}`)
      );
      for (const [name, cut] of CUTS) {
        const saved = await diffSqliteDatabases(before, agent, cut);
        const savedRef = await diffSqliteDatabases(before, ref, cut);
        const ownCut = diffDatabaseDiffs(savedRef, saved).afterOnly;
        // One listener for every selector, as the harness asks a case's selectors.
        const watch = watchSelectors(selectors);
        const streamed = await streamSqliteDiff(before, agent, cut, watch.listener);
        selectors.forEach((s, i) => {
          const text = JSON.stringify(s);
          const answer = explainMatch(saved, s).matched;
          if (answer === null) cannotTell++;
          else decided++;
          assert.ok(
            answer === null || answer === truths[i],
            `${name}: ${text} answered ${answer}, the whole diff ${truths[i]}`,
          );
          const live = watch.explain(streamed, s)?.matched;
          assert.equal(live, truths[i], `${name}, asked while diffing: ${text}`);
          const own = explainMatch(ownCut, s).matched;
          assert.ok(
            own === null || own === owns[i],
            `${name}, diff of diffs: ${text} answered ${own}, the whole ${owns[i]}`,
          );
        });
      }
    });
  }

  it("met both kinds of answer on the cut diffs (the property is not vacuous)", () => {
    assert.ok(cannotTell > 10, `only ${cannotTell} cannot-tell answers`);
    assert.ok(decided > 50, `only ${decided} decided answers`);
  });
});

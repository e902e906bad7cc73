/**
 * Rows that join: one to three worlds (see `_worlds.ts`), each giving every
 * table a row that satisfies all the queries' join equalities at once; then
 * now and then a row left out (an unmatched row for an outer join), a row
 * repeated, or a value set to NULL. Finds what needs a long join chain (a
 * NATURAL JOIN of five tables) or two rows that agree on some columns and
 * not others.
 *
 * @module
 */
import type { CandidateRow } from "../candidate.ts";
import { copies, makeWorlds, worldRow } from "./_worlds.ts";
import type { Strategy, StrategyContext } from "./strategy.ts";

/** Rows that satisfy the queries' join chains. */
export const joined: Strategy = {
  name: "joined",
  weight: 3,
  generate(context: StrategyContext) {
    const { random } = context;
    const worlds = makeWorlds(context, random.pick([1, 2, 2, 3]));
    const rows = new Map<string, CandidateRow[]>();
    for (const t of context.schema.tables) {
      const own: CandidateRow[] = [];
      for (const w of worlds) {
        // A world's row left out of a table the queries read: unmatched rows elsewhere.
        if (context.schema.read.has(t.name) && own.length > 0 && random.chance(0.15)) continue;
        const row = [...worldRow(context, t, w)];
        if (random.chance(0.1)) {
          const i = random.int(0, row.length - 1);
          if (!t.columns[i]!.notNull && t.columns[i]!.pk === 0) row[i] = null;
        }
        own.push(row);
      }
      if (own.length > 0 && context.schema.read.has(t.name) && random.chance(0.25)) {
        own.push(...copies(t, random.pick(own), 2).slice(1));
      }
      if (own.length > 0 && context.schema.read.has(t.name) && random.chance(0.15)) {
        own.push(random.pick(own)); // the same row again, where the schema allows
      }
      rows.set(t.name, own);
    }
    return rows;
  },
};

/**
 * The scoring rules of the public leaderboards, one entry each, by the name
 * `--score` takes. Our own verdict (the harness's row comparison) stays the
 * default; these are reported beside it.
 *
 * @module
 */
import type { Score, ScoreName } from "./score.ts";
import { SPIDER } from "./score_spider.ts";
import { BIRD_EX } from "./score_bird_ex.ts";
import { BIRD_F1 } from "./score_bird_f1.ts";
import { BIRD_VES } from "./score_bird_ves.ts";

/**
 * Every score, by name.
 *
 * @example
 * ```ts
 * import { SCORES } from "./scores.ts";
 * Object.keys(SCORES); // ["spider", "bird-ex", "bird-f1", "bird-ves"]
 * ```
 */
export const SCORES: Readonly<Record<ScoreName, Score>> = {
  spider: SPIDER,
  "bird-ex": BIRD_EX,
  "bird-f1": BIRD_F1,
  "bird-ves": BIRD_VES,
};

/**
 * The scores a `--score` value names: a score's own name, or `bird` for
 * BIRD's EX and Soft-F1 (R-VES times every query 100 times, so it is asked
 * for by name).
 *
 * @param name the value
 * @returns the scores, or undefined for an unknown name
 * @example
 * ```ts
 * import { scoresNamed } from "./scores.ts";
 * scoresNamed("bird")?.map((s) => s.name); // ["bird-ex", "bird-f1"]
 * ```
 */
export function scoresNamed(name: string): readonly Score[] | undefined {
  if (name === "bird") return [BIRD_EX, BIRD_F1];
  return Object.hasOwn(SCORES, name) ? [SCORES[name as ScoreName]] : undefined;
}

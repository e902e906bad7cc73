/**
 * The strategies a search asks for candidate databases, in order. A new
 * strategy is one file and one line here.
 *
 * @module
 */
import { invented } from "./invented.ts";
import { joined } from "./joined.ts";
import { mutatedSubset } from "./mutated_subset.ts";
import { realSubset } from "./real_subset.ts";
import { sized } from "./sized.ts";
import type { Strategy } from "./strategy.ts";

export type { Strategy, StrategyContext } from "./strategy.ts";

/** Every strategy, in the order a search first asks them. */
export const STRATEGIES: readonly Strategy[] = [
  realSubset,
  mutatedSubset,
  invented,
  joined,
  sized,
];

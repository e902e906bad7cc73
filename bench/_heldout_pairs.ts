/**
 * Every pair of the held-out-style set (bench/counterexample_heldout.ts).
 *
 * @module
 */
import { freshPairs } from "./_heldout_fresh.ts";
import { hardPairs } from "./_heldout_hard.ts";
import { thirdPairs } from "./_heldout_third.ts";
import { musicPairs } from "./_heldout_music.ts";
import { schoolPairs } from "./_heldout_school.ts";
import { shopPairs } from "./_heldout_shop.ts";
import type { HeldoutInstance } from "./_heldout_types.ts";

export type { HeldoutInstance, MistakeClass } from "./_heldout_types.ts";

/**
 * @returns every instance, music first
 */
export function heldoutInstances(): HeldoutInstance[] {
  return [
    ...musicPairs(),
    ...schoolPairs(),
    ...shopPairs(),
    ...hardPairs(),
    ...freshPairs(),
    ...thirdPairs(),
  ];
}

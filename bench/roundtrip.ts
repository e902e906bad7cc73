/**
 * The `db diff --sql` and `--changeset` round trip on fresh seeded pairs
 * (tests/diff_pairs.ts with the round-trip shapes; seeds outside the
 * tests' own): each pair's --sql applied with the sqlite3 shell, its
 * --changeset with sqlite3changeset_apply, and each result diffed against
 * the after file. Prints how many held, and every pair that did not.
 *
 *   deno run -A bench/roundtrip.ts [--pairs 200] [--seed 27000000]
 *   bun bench/roundtrip.ts
 *
 * @module
 */
import process from "node:process";
import { tempDir } from "../tests/fixtures.ts";
import { buildPair } from "../tests/diff_pairs.ts";
import {
  applyChangeset,
  applySqlWithShell,
  changesetPatch,
  differences,
  sqlPatch,
} from "../tests/apply_patch.ts";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

const PAIRS = flag("--pairs", 200);
const SEED = flag("--seed", 27_000_000);
const dir = tempDir("dbagenteval-bench-roundtrip-");
let sqlHeld = 0;
let changesetHeld = 0;
const problems: string[] = [];
const started = performance.now();
try {
  for (let n = 0; n < PAIRS; n++) {
    const a = dir.file(`a${n}.db`);
    const b = dir.file(`b${n}.db`);
    buildPair(n, SEED + n, a, b, true);
    const shell = applySqlWithShell(a, await sqlPatch(a, b), dir.file(`s${n}.db`));
    const sqlLeft = shell === null ? await differences(dir.file(`s${n}.db`), b) : [shell];
    if (sqlLeft.length === 0) sqlHeld++;
    else problems.push(`seed ${SEED + n} --sql: ${sqlLeft.join("; ").slice(0, 300)}`);
    const { bytes, omitted } = await changesetPatch(a, b);
    const applied = await applyChangeset(a, bytes, dir.file(`c${n}.db`));
    const csLeft = applied === null
      ? await differences(dir.file(`c${n}.db`), b, omitted, false)
      : [applied];
    if (csLeft.length === 0) changesetHeld++;
    else problems.push(`seed ${SEED + n} --changeset: ${csLeft.join("; ").slice(0, 300)}`);
  }
} finally {
  dir.cleanup();
}
for (const p of problems) console.log(p);
console.log(
  `${PAIRS} pairs (seeds ${SEED}..${SEED + PAIRS - 1}): --sql exact on ${sqlHeld}, ` +
    `--changeset exact on ${changesetHeld} (its omitted tables aside), ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
);

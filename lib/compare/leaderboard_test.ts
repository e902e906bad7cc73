import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { leaderboardScores, leaderboardText, type ScoredQuestion } from "./leaderboard.ts";
import { SCORES } from "./scores.ts";
import { storedExecutor } from "./stored.ts";

const db = await openMemoryDatabase();
after(() => db.close());
db.exec("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (1, 'x'), (2, 'y');");
const execute = storedExecutor(db);
const q = (
  id: string,
  gold: string,
  predicted: string | undefined,
  ours: boolean,
): ScoredQuestion => ({
  id,
  gold,
  predicted,
  ours,
  ordered: false,
  precision: 2,
  execute,
});

describe("leaderboardScores()", () => {
  it("totals each score beside ours and lists the questions where they disagree, with the reason", async () => {
    const questions = [
      q("same", "SELECT a FROM t", "SELECT a FROM t", true),
      q("extra", "SELECT a FROM t", "SELECT a, b FROM t", true),
      q("distinct", "SELECT DISTINCT a FROM t", "SELECT a FROM t", false),
      q("no-sql", "SELECT a FROM t", undefined, false),
      q("bad-gold", "SELECT nope FROM t", "SELECT a FROM t", false),
    ];
    const [spider, bird] = await leaderboardScores(questions, [SCORES.spider, SCORES["bird-ex"]]);
    assert.equal(spider!.questions, 4);
    assert.equal(spider!.noVerdict, 1);
    assert.equal(spider!.total, 50); // same and distinct
    assert.equal(spider!.ours, 50); // same and extra
    assert.deepEqual(spider!.disagreements.map((d) => [d.id, d.official, d.ours]), [
      ["extra", false, true],
      ["distinct", true, false],
    ]);
    assert.match(spider!.disagreements[0]!.reason, /2 columns for the gold's 1/);
    assert.match(spider!.disagreements[1]!.reason, /removes DISTINCT/);
    assert.deepEqual(bird!.disagreements.map((d) => d.id), ["extra", "distinct"]);
    assert.match(bird!.disagreements[1]!.reason, /sets of rows/);
    const text = leaderboardText([spider!]);
    assert.equal(
      text[0],
      "spider: 50.0% over 4 questions (ours: 50.0%), 1 without a verdict (the gold failed); 2 disagree:",
    );
    assert.match(text[1]!, /^ {2}extra: spider FAIL, ours PASS: 2 columns/);
  });
});

describe("leaderboardScores() on an unanswered question (an empty prediction)", () => {
  // BIRD's evaluators run a predictions file's 0 as the query " ": no rows,
  // which equal a gold's empty result (mini_dev's evaluation_ex.py).
  const cases: [string, string, number, number, number][] = [
    ["a gold with rows", "SELECT a FROM t", 0, 0, 0],
    ["a gold with no rows", "SELECT a FROM t WHERE a > 5", 0, 100, 100],
  ];
  for (const [name, gold, spider, birdEx, birdF1] of cases) {
    it(`scores it as BIRD's evaluators do against ${name}`, async () => {
      const totals = await leaderboardScores(
        [q("u", gold, "", false)],
        [SCORES.spider, SCORES["bird-ex"], SCORES["bird-f1"]],
      );
      assert.deepEqual(totals.map((t) => t.total), [spider, birdEx, birdF1]);
      if (birdEx > 0) {
        assert.match(totals[1]!.disagreements[0]!.reason, /^unanswered: BIRD's evaluators run/);
      }
    });
  }
});

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseVerdict, type Verdict } from "./parse_verdict.ts";

const pass = (reason: string): Verdict => ({ kind: "verdict", status: "PASS", reason });
const fail = (reason: string): Verdict => ({ kind: "verdict", status: "FAIL", reason });
const unreadable = (firstLine: string): Verdict => ({ kind: "unreadable", firstLine });

const cases: [string, unknown, Verdict][] = [
  [
    "the asked form",
    "PASS\nThe count is 2, as in the reference.",
    pass("The count is 2, as in the reference."),
  ],
  [
    "a FAIL in the asked form",
    "FAIL\nThe answer says 3, the rows say 2.",
    fail("The answer says 3, the rows say 2."),
  ],
  ["lower case and spaces", "  pass  \n\n   it matches  \n", pass("it matches")],
  ["Windows line ends", "FAIL\r\nwrong total\r\n", fail("wrong total")],
  ["markdown bold", "**PASS**\nThe total matches.", pass("The total matches.")],
  [
    "a markdown heading",
    "# FAIL\n*The answer invents a name.*",
    fail("The answer invents a name."),
  ],
  [
    "a label before the verdict",
    "Verdict: **FAIL**\nReason: the total is wrong",
    fail("the total is wrong"),
  ],
  [
    "the reason on the same line",
    "PASS - the answer gives the count.",
    pass("the answer gives the count."),
  ],
  [
    "the reason after a colon",
    "FAIL: it answers another question",
    fail("it answers another question"),
  ],
  ["PASSED and FAILED", "Failed.\nNo number matches.", fail("No number matches.")],
  ["a verdict with no reason", "PASS", pass("")],
  ["a code fence", "```\nPASS\nfine\n```", pass("fine")],
  ["a JSON reply", '{"verdict":"pass","reason":"the total is right"}', pass("the total is right")],
  [
    "a JSON reply in a fence",
    '```json\n{\n  "verdict": "FAIL",\n  "reason": "wrong"\n}\n```',
    fail("wrong"),
  ],
  ["a JSON reply with other keys", '{"result": "Fail", "explanation": "no"}', fail("no")],
  ["a JSON boolean", '{"pass": true}', pass("")],
  ["an object instead of text", { verdict: "fail", reason: "x" }, fail("x")],
  [
    "a think block first",
    "<think>\nPASS or FAIL? Let me see.\n</think>\nFAIL\nThe rows disagree.",
    fail("The rows disagree."),
  ],
  [
    "reasoning first, verdict last",
    "The answer says 2 and the rows say 2.\nVerdict: PASS",
    pass("The answer says 2 and the rows say 2."),
  ],
  ["a JSON object after prose", 'Here it is: {"verdict":"pass","reason":"ok"}', pass("ok")],
  [
    "a word that only starts with a verdict",
    "Passing thoughts about the answer",
    unreadable("Passing thoughts about the answer"),
  ],
  [
    "prose without a verdict",
    "I think the answer is probably right.\nMaybe.",
    unreadable("I think the answer is probably right."),
  ],
  ["the asked form echoed back", "PASS or FAIL\nThe total matches.", unreadable("PASS or FAIL")],
  ["both verdicts with a slash", "**PASS/FAIL**", unreadable("**PASS/FAIL**")],
  ["both verdicts with a bar", "FAIL | PASS", unreadable("FAIL | PASS")],
  ["a verdict line for each", "PASS\nFAIL", unreadable("PASS")],
  [
    "reasoning, then both verdicts",
    "The total matches.\nFAIL\nPASS",
    unreadable("The total matches."),
  ],
  [
    "the other verdict in a reason",
    "FAIL\nIt would PASS with 2000.",
    fail("It would PASS with 2000."),
  ],
  ["an emoji before the verdict", "\u2705 PASS\nThe total matches.", pass("The total matches.")],
  ["an emoji after a label", "**Verdict:** \u274C FAIL: wrong total", fail("wrong total")],
  ["a quoted verdict", '"PASS"\nfine', pass("fine")],
  ["a verdict in brackets", "[FAIL] the count is 3", fail("the count is 3")],
  ["a heading alone first", "## Verdict\nPASS\nThe total matches.", pass("The total matches.")],
  ["a label alone first", "**Verdict:**\nFAIL\nwrong", fail("wrong")],
  [
    "a sentence, then the verdict, on the last line",
    "I compared the totals.\nThe answer is correct. PASS",
    pass("The answer is correct."),
  ],
  ["a sentence and the verdict alone", "No, the count is 3. FAIL.", fail("No, the count is 3.")],
  [
    "a verdict after a colon, last",
    "Totals compared.\nSo the verdict is: FAIL",
    fail("Totals compared."),
  ],
  ["a verdict that ends a clause only", "It does not PASS", unreadable("It does not PASS")],
  ["a JSON verdict true", '{"verdict": true, "reason": "ok", "score": 1}', pass("ok")],
  ["a JSON verdict false", '{"verdict": false, "reason": "no"}', fail("no")],
  [
    "a verdict line that ends with the other",
    "PASS: no, it is wrong. FAIL",
    unreadable("PASS: no, it is wrong. FAIL"),
  ],
  ["a reason in parentheses", "FAIL (the rows say 2)", fail("(the rows say 2)")],
  ["an empty reply", "   \n ", unreadable("(empty reply)")],
  ["JSON without a verdict", '{"score": 0.9}', unreadable('{"score": 0.9}')],
  ["undefined", undefined, unreadable("(no reply: the judge returned undefined)")],
  ["a number", 42, unreadable("42")],
];

describe("parseVerdict()", () => {
  for (const [name, reply, expected] of cases) {
    it(`reads ${name}`, () => {
      assert.deepEqual(parseVerdict(reply), expected);
    });
  }

  it("shortens a very long first line of an unreadable reply", () => {
    const verdict = parseVerdict("x".repeat(1000));
    assert.equal(verdict.kind, "unreadable");
    assert.ok(verdict.kind === "unreadable" && verdict.firstLine.length < 320);
  });
});

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isNumericText, normalizeNumber, numbersInText, textNumberValues } from "./normalize.ts";

describe("normalizeNumber()", () => {
  const cases: [string, unknown, number, string | null][] = [
    ["treats an integer as itself", 2, 2, "2"],
    ["drops a zero fraction of a real", 2.0, 2, "2"],
    ["reads numeric text", "2.00", 2, "2"],
    ["rounds to the precision", 3.14159, 2, "3.14"],
    ["rounds half away from zero on the written digits", 2.675, 2, "2.68"],
    ["rounds negatives away from zero", -0.125, 2, "-0.13"],
    ["keeps more places with a higher precision", 0.12345, 4, "0.1235"],
    ["rounds to whole numbers with precision 0", 2.5, 0, "3"],
    ["carries through nines", 9.999, 2, "10"],
    ["turns -0 into 0", -0.001, 2, "0"],
    ["keeps bigints exact", 12345678901234567890n, 2, "12345678901234567890"],
    ["expands exponent notation", 1e21, 2, "1000000000000000000000"],
    ["expands small exponents", 1.5e-7, 8, "0.00000015"],
    ["reads exponent text", "1e3", 2, "1000"],
    ["reads booleans as 1 and 0", true, 2, "1"],
    ["reads a leading-point fraction", ".5", 2, "0.5"],
    ["keeps a postcode as text", "01234", 2, null],
    ["keeps padded text as text", " 2", 2, null],
    ["keeps text with separators as text", "1,234", 2, null],
    ["keeps words as text", "abc", 2, null],
    ["does not read null as a number", null, 2, null],
    ["does not read an empty text as a number", "", 2, null],
    ["names NaN", Number.NaN, 2, "NaN"],
    ["rounds a huge negative exponent to 0 without spelling it out", "1e-999999999", 2, "0"],
    ["rounds an exponent just below the precision to 0", "5e-4", 2, "0"],
    ["rounds an exponent at the precision up", "5e-3", 2, "0.01"],
    ["keeps a huge exponent as an exponent", "-25e999999999", 2, "-25e999999999"],
    ["reads zero with a huge exponent as 0", "0e999999999", 2, "0"],
    ["gives a long run of zeros the exponent form", `1${"0".repeat(1001)}`, 2, "1e1001"],
    ["gives the same form to exponent text", "10e1000", 2, "1e1001"],
    ["gives the same form to a bigint", 10n ** 1001n, 2, "1e1001"],
    ["spells out a run of 1,000 zeros", "1e1000", 2, `1${"0".repeat(1000)}`],
  ];
  for (const [name, value, precision, expected] of cases) {
    it(`normalizeNumber() ${name}`, () => {
      assert.equal(normalizeNumber(value, precision), expected);
    });
  }

  it("isNumericText() refuses a lone minus or point", () => {
    assert.equal(isNumericText("-"), false);
    assert.equal(isNumericText("."), false);
    assert.equal(isNumericText("-.5"), true);
  });
});

describe("numbersInText()", () => {
  const cases: [string, string, string[]][] = [
    ["finds a plain integer", "There are 2 orders.", ["2"]],
    ["leaves the full stop after a number", "The answer is 11900.", ["11900"]],
    ["removes thousands separators", "Revenue was 1,234,567 dollars", ["1234567"]],
    ["keeps decimals with separators", "$1,200.50 in total", ["1200.50"]],
    ["reads a list as several numbers", "ids 1,2,3", ["1", "2", "3"]],
    ["reads negatives", "a change of -5 and −7", ["-5", "-7"]],
    ["reads a hyphen between digits as a separator, not a sign", "2024-05-01", [
      "2024",
      "05",
      "01",
    ]],
    ["reads percentages", "12.5% and 3 percent", ["12.5", "3"]],
    ["skips digits glued to a word", "store s1 and Q3", []],
    ["reads a number with a unit after it", "5km", ["5"]],
    ["reads no-break space separators", "1\u00a0234 items", ["1234"]],
    ["finds nothing in words", "Sorry, I cannot answer.", []],
  ];
  for (const [name, text, expected] of cases) {
    it(`numbersInText() ${name}`, () => {
      assert.deepEqual(numbersInText(text).map((n) => n.value), expected);
    });
  }

  it("numbersInText() marks percentages and negatives", () => {
    const [a, b] = numbersInText("-4% then 7");
    assert.equal(a?.percent, true);
    assert.equal(a?.negative, true);
    assert.equal(b?.percent, false);
    assert.equal(a?.text, "-4%");
  });
});

describe("textNumberValues()", () => {
  const cases: [string, string, number, boolean, string[]][] = [
    ["gives a plain number's rounded value", "3.14159", 2, false, ["3.14"]],
    ["gives a percentage as value and fraction", "12.5%", 4, false, ["12.5", "0.125"]],
    ["gives both signs when asked", "-5", 2, true, ["-5", "5"]],
  ];
  for (const [name, text, precision, ignoreSign, expected] of cases) {
    it(`textNumberValues() ${name}`, () => {
      const found = numbersInText(text)[0]!;
      assert.deepEqual(textNumberValues(found, precision, { ignoreSign }), expected);
    });
  }
});

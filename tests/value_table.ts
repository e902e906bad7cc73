/**
 * For tests: one table of SQLite values, each with the JSON an agent in
 * another language writes for it over the agent protocol (what Python's
 * `json.dumps` writes, or the codec's one-key object where plain JSON has
 * nothing). Every JSON that carries values (the run file's rows, the agent
 * protocol, the hosted-agent wire) must give back each value exactly.
 *
 * @module
 */

/** [what it is, the value in memory, the JSON a Python agent writes for it] */
export const VALUES: readonly (readonly [string, unknown, string])[] = [
  ["NULL", null, "null"],
  ["zero", 0, "0"],
  ["minus zero", -0, "-0.0"],
  ["an integer", 42, "42"],
  ["1.0, a REAL that is a whole number", 1.0, "1.0"],
  ["a fraction", 1.5, "1.5"],
  ["the smallest REAL", 5e-324, "5e-324"],
  ["a REAL beyond 2^53", 2 ** 60, "1.152921504606847e+18"],
  ["2^53 + 1", 9007199254740993n, "9007199254740993"],
  ["the smallest 64-bit integer", -(2n ** 63n), "-9223372036854775808"],
  ["2^53 + 1 as the codec writes it", 9007199254740993n, '{"$bigint": "9007199254740993"}'],
  ["infinity", Infinity, '{"$real": "Infinity"}'],
  ["minus infinity", -Infinity, '{"$real": "-Infinity"}'],
  ["NaN", NaN, '{"$real": "NaN"}'],
  ["empty text", "", '""'],
  ["text", "\u00e9\ud83d\ude00 'x'", "\"\\u00e9\\ud83d\\ude00 'x'\""],
  ["digits as text", "9007199254740993", '"9007199254740993"'],
  ["text that is not UTF-8", "a\udcff", '"a\\udcff"'],
  ["an empty BLOB", new Uint8Array([]), '{"$blob": ""}'],
  ["a BLOB", new Uint8Array([0, 255, 16]), '{"$blob": "AP8Q"}'],
];

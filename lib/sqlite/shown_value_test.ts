import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SHOWN_BLOB_BYTES, SHOWN_TEXT_CHARS, shownBlob, shownText } from "./shown_value.ts";

describe("shownBlob() and shownText()", () => {
  const cases: [string, string, RegExp][] = [
    ["a short BLOB is its whole literal", shownBlob(new Uint8Array([0, 255])), /^x'00ff'$/],
    [
      "a long BLOB is its first bytes, its size and a hash",
      shownBlob(new Uint8Array(10_000_000)),
      new RegExp(
        `^x'${"00".repeat(SHOWN_BLOB_BYTES)}…' \\(10000000 bytes, sha256 [0-9a-f]{12}\\)$`,
      ),
    ],
    ["a short TEXT is itself", shownText("héllo"), /^héllo$/],
    [
      "a long TEXT is its start, its length and a hash",
      shownText("y".repeat(5000)),
      new RegExp(`^y{${SHOWN_TEXT_CHARS}}… \\(5000 characters, sha256 [0-9a-f]{12}\\)$`),
    ],
  ];
  for (const [name, got, want] of cases) it(name, () => assert.match(got, want));

  it("gives two different long BLOBs of one size different hashes", () => {
    const a = new Uint8Array(1000);
    const b = new Uint8Array(1000);
    b[999] = 1;
    assert.notEqual(shownBlob(a), shownBlob(b));
  });
});

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tempDir } from "../../tests/fixtures.ts";
import { ReadAhead } from "./read_ahead.ts";

const dir = tempDir();
after(() => dir.cleanup());

const PAGE = 4096;
const CHUNK = 256 * 1024;

describe("ReadAhead", () => {
  // 2.5 chunks of bytes that differ from page to page.
  const size = 2 * CHUNK + CHUNK / 2;
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 12)) & 0xff;
  const file = dir.file("pages.bin");
  fs.writeFileSync(file, bytes);

  // name, reads as [offset, length], what each returns (0: the caller reads it)
  const cases: [string, [number, number][], number[]][] = [
    [
      "serves pages that follow on from one chunk read",
      [[0, 100], [0, PAGE], [PAGE, PAGE], [5 * PAGE, PAGE], [CHUNK, PAGE], [CHUNK + PAGE, PAGE]],
      [0, PAGE, PAGE, PAGE, PAGE, PAGE],
    ],
    [
      "leaves a first random probe to the caller, then reads ahead once reads follow on",
      [[2 * CHUNK, PAGE], [0, PAGE], [CHUNK + PAGE, PAGE], [2 * CHUNK + PAGE, PAGE]],
      [0, 0, PAGE, PAGE],
    ],
    [
      "reads ahead in two walks at once",
      [[0, 100], [2 * CHUNK, PAGE], [PAGE, PAGE], [2 * CHUNK + PAGE, PAGE], [CHUNK, PAGE]],
      [0, 0, PAGE, PAGE, PAGE],
    ],
    [
      "leaves a read across two chunks to the caller",
      [[0, 100], [0, PAGE], [CHUNK - 8, 16]],
      [0, PAGE, 0],
    ],
    ["leaves a read past the end to the caller", [[0, 100], [0, PAGE], [size - 8, 16]], [
      0,
      PAGE,
      0,
    ]],
    [
      "keeps a short last chunk",
      [[2 * CHUNK - PAGE, PAGE], [2 * CHUNK, PAGE], [size - PAGE, PAGE]],
      [0, PAGE, PAGE],
    ],
  ];
  for (const [name, reads, expected] of cases) {
    it(name, () => {
      const fd = fs.openSync(file, "r");
      try {
        const ahead = new ReadAhead(fd, size);
        const got = reads.map(([at, n]) => {
          const dest = new Uint8Array(n + 10).fill(0xee);
          const r = ahead.read(dest, 10, n, at);
          if (r > 0) assert.deepEqual(dest.subarray(10), bytes.subarray(at, at + n));
          else assert.ok(dest.every((b) => b === 0xee));
          return r;
        });
        assert.deepEqual(got, expected);
      } finally {
        fs.closeSync(fd);
      }
    });
  }
});

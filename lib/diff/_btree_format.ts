/**
 * What the readers of raw pages (_page_scan.ts, _table_scan.ts,
 * _named_roots.ts, page_plan.ts, _cell_compare.ts) share of SQLite's file
 * format: page types, varints, and how much of a cell's payload a page
 * keeps before the rest spills to overflow pages.
 *
 * @module
 */

/** The first byte of each kind of b-tree page. */
export const TABLE_LEAF = 0x0d;
export const TABLE_INTERIOR = 0x05;
export const INDEX_LEAF = 0x0a;
export const INDEX_INTERIOR = 0x02;

/** A page that is not what the format says it should be. */
export class FormatError extends Error {}

/**
 * Reads varints (1 to 9 bytes, big-endian, 7 bits a byte, 8 in the ninth)
 * from `buf`, moving {@link VarintReader.at} past each. Values are exact up
 * to 2^53; a caller that needs more checks `Number.MAX_SAFE_INTEGER`.
 */
export class VarintReader {
  buf: Uint8Array;
  at: number;
  /** Reading at or past this offset is an error. */
  end: number;

  constructor(buf: Uint8Array, at = 0, end = buf.length) {
    this.buf = buf;
    this.at = at;
    this.end = end;
  }

  /** The varint at {@link at}; throws {@link FormatError} past {@link end}. */
  read(): number {
    const { buf, end } = this;
    let v = 0;
    for (let i = 0; i < 9; i++) {
      if (this.at >= end) throw new FormatError("varint past the page");
      const byte = buf[this.at++]!;
      if (i === 8) return v * 256 + byte;
      v = v * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return v;
    }
    throw new FormatError("varint");
  }
}

/** The varint at `at` of `buf` (below `end`) and the offset after it. */
export function varint(buf: Uint8Array, at: number, end = buf.length): [number, number] {
  const r = new VarintReader(buf, at, end);
  const v = r.read();
  return [v, r.at];
}

/** The largest payload a cell of a page of `type` keeps whole on the page. */
export function maxLocal(usable: number, type: number): number {
  return type === TABLE_LEAF ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
}

/**
 * The bytes of a `payload`-byte record that a page of `type` keeps (all of
 * it, or the part before a 4-byte overflow page number).
 *
 * @param payload the record's size
 * @param usable the page size less its reserved bytes
 * @param type the page's type byte
 */
export function localPayload(payload: number, usable: number, type: number): number {
  const max = maxLocal(usable, type);
  if (payload <= max) return payload;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((payload - min) % (usable - 4));
  return k <= max ? k : min;
}

/** The size of a value of record serial type `type`, or -1 for the reserved 10 and 11. */
export function serialSize(type: number): number {
  return type >= 12 ? (type - 12) >> 1 : SIZES[type] ?? -1;
}

const SIZES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

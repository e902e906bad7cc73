/**
 * Values on the wire between `run` and its agent host (_agent_host.ts):
 * JSON, with the values JSON cannot hold tagged so that they come back as
 * they were: bigints, bytes (BLOBs), NaN and the infinities.
 *
 * @module
 */

const BIGINT = "\u0000bigint";
const BYTES = "\u0000bytes";
const NUMBER = "\u0000number";

/**
 * A JSON text of `value`, with bigints, Uint8Arrays and non-finite numbers tagged.
 *
 * @param value the value
 * @param stringify JSON.stringify as it was before any agent module loaded
 * @returns the text
 */
export function encodeWire(value: unknown, stringify: typeof JSON.stringify): string {
  return stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    // The raw value: toJSON (a Buffer's) has run already on `v`.
    const raw = this[key];
    if (typeof raw === "bigint") return { [BIGINT]: raw.toString() };
    if (raw instanceof Uint8Array) return { [BYTES]: bytesToBase64(raw) };
    if (typeof raw === "number" && !Number.isFinite(raw)) return { [NUMBER]: String(raw) };
    return v;
  });
}

/**
 * The value {@link encodeWire} wrote.
 *
 * @param text the JSON text
 * @param parse JSON.parse
 * @returns the value
 */
export function decodeWire(text: string, parse: typeof JSON.parse = JSON.parse): unknown {
  return parse(text, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (typeof o[BIGINT] === "string") return BigInt(o[BIGINT]);
    if (typeof o[BYTES] === "string") return base64ToBytes(o[BYTES]);
    if (typeof o[NUMBER] === "string") return Number(o[NUMBER]);
    return v;
  });
}

function bytesToBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function base64ToBytes(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

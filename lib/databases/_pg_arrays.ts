/**
 * PostgreSQL arrays as lists, parsed here rather than by postgres.js.
 *
 * postgres.js learns the server's array types by a query of its own on each
 * new connection, whose failure nothing awaits: when a case's SQL ends the
 * harness's other sessions (`pg_terminate_backend`), one that is just
 * connecting rejects that query, and the unhandled rejection ended the
 * whole run. So the harness asks for the array types once, when the
 * database opens ({@link ARRAY_TYPES_SQL}, a statement like any other), and
 * gives every session a parser for each ({@link arrayTypes}).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { INT8, TEXT_TIME_TYPES } from "./pg_types.ts";

/** Each array type and its element type. */
export const ARRAY_TYPES_SQL = `SELECT a.oid::int AS array_oid, a.typelem::int AS element_oid
  FROM pg_catalog.pg_type a WHERE a.typcategory = 'A' AND a.typelem <> 0`;

const NUMBERS = new Set([21, 23, 26, 700, 701]); // int2, int4, oid, float4, float8

/** An element's text as the value the harness compares. */
function elementParser(oid: number): (text: string) => unknown {
  if (NUMBERS.has(oid)) return Number;
  if (oid === INT8) return (t) => BigInt(t);
  if (oid === 16) return (t) => t === "t" || t === "true";
  if (oid === 114 || oid === 3802) return (t) => JSON.parse(t);
  if (oid === 17) return (t) => new Uint8Array(Buffer.from(t.replace(/^\\x/, ""), "hex"));
  if (TEXT_TIME_TYPES.includes(oid)) return (t) => t;
  return (t) => t;
}

/**
 * An array's text (`{1,2,NULL}`, `{"a b","c\"d"}`, `{{1,2},{3,4}}`,
 * `[0:1]={7,8}`) as nested lists.
 *
 * @param text the array as PostgreSQL prints it
 * @param element how an element's text becomes its value
 * @returns the lists
 */
export function parseArray(text: string, element: (text: string) => unknown): unknown[] {
  let i = text.startsWith("[") ? text.indexOf("=") + 1 : 0;
  const list = (): unknown[] => {
    const out: unknown[] = [];
    i++; // {
    while (i < text.length && text[i] !== "}") {
      if (text[i] === "{") out.push(list());
      else if (text[i] === '"') {
        let s = "";
        for (i++; text[i] !== '"'; i++) s += text[i] === "\\" ? text[++i] : text[i];
        i++;
        out.push(element(s));
      } else {
        const end = text.slice(i).search(/[,}]/);
        const raw = text.slice(i, i + end);
        i += end;
        out.push(raw === "NULL" ? null : element(raw));
      }
      if (text[i] === ",") i++;
    }
    i++; // }
    return out;
  };
  return list();
}

/**
 * postgres.js custom types that parse each array type of the server.
 *
 * @param rows the rows of {@link ARRAY_TYPES_SQL}: array type, element type
 * @returns the types, for postgres.js's `types` option
 */
export function arrayTypes(rows: readonly unknown[][]): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  for (const [arrayOid, elementOid] of rows) {
    const parse = elementParser(Number(elementOid));
    types[`array_${arrayOid}`] = {
      to: Number(arrayOid),
      from: [Number(arrayOid)],
      serialize: String,
      parse: (text: string) => parseArray(text, parse),
    };
  }
  return types;
}

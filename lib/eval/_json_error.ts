/**
 * Where a JSON text first goes wrong, and why, in words that do not depend
 * on the runtime: V8 and JavaScriptCore word JSON.parse's errors differently
 * and JavaScriptCore gives no position, so the line a cases file error names
 * came out different under Bun (and in the binary) than under Deno.
 *
 * @module
 */

/** A JSON syntax error: the offset it is at and what is wrong there. */
export interface JsonSyntaxError {
  readonly offset: number;
  readonly message: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Scans `text` as strict JSON (RFC 8259) and returns its first error, or
 * undefined when it is valid. Nesting is tracked on a list, not the call
 * stack, so any depth is scanned.
 *
 * @param text the JSON text
 * @returns the first error, or undefined
 */
export function findJsonError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const stack: ("[" | "{")[] = [];
  // True right after [ or {: the next thing is a value or the close, no comma.
  let fresh = false;
  const skip = (): void => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  const at = (offset: number, message: string): JsonSyntaxError => ({ offset, message });
  const shown = (offset: number): string =>
    offset >= text.length ? "the end of the file" : JSON.stringify(text[offset]);
  const scanString = (): JsonSyntaxError | undefined => {
    const start = i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return at(i, `bad escape \\${e ?? ""} in a string`);
      } else if (c < 0x20) {
        return at(start, 'a string is not closed on its line (a missing closing ")');
      } else {
        i++;
      }
    }
    return at(start, 'a string is not closed (a missing closing ")');
  };
  const scanValue = (): JsonSyntaxError | undefined => {
    skip();
    const c = text[i];
    if (c === '"') return scanString();
    if (c === "[" || c === "{") {
      stack.push(c);
      fresh = true;
      i++;
      return undefined;
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m !== null && m[0] !== "" && m[0] !== "-") {
      i += m[0].length;
      return undefined;
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return undefined;
      }
    }
    const token = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 40))?.[0];
    if (token !== undefined) {
      const hint = token === "NaN" || token === "Infinity"
        ? "; JSON has no NaN or Infinity, write null or a number"
        : "; text must be in double quotes";
      return at(i, `unexpected ${token}${hint}`);
    }
    if (c === "'") return at(i, "unexpected ' : JSON strings take double quotes");
    return at(i, `expected a value, found ${shown(i)}`);
  };

  let error = scanValue();
  while (error === undefined) {
    skip();
    const open = stack.at(-1);
    if (open === undefined) {
      return i < text.length
        ? at(i, `unexpected ${shown(i)} after the end of the JSON value`)
        : undefined;
    }
    const close = open === "[" ? "]" : "}";
    if (text[i] === close) {
      stack.pop();
      fresh = false;
      i++;
      continue;
    }
    if (!fresh) {
      if (text[i] !== ",") {
        return at(i, `expected , or ${close}, found ${shown(i)}`);
      }
      const comma = i++;
      skip();
      if (text[i] === close) return at(comma, `a comma before ${close} (a trailing comma)`);
    }
    if (open === "{") {
      skip();
      if (text[i] !== '"') return at(i, `expected a key in double quotes, found ${shown(i)}`);
      error = scanString();
      if (error !== undefined) break;
      skip();
      if (text[i] !== ":") return at(i, `expected : after the key, found ${shown(i)}`);
      i++;
    }
    fresh = false;
    error = scanValue();
  }
  return error;
}

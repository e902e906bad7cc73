/**
 * XML text for reports (JUnit) that must parse whatever an agent returned:
 * characters XML 1.0 cannot hold (control characters, lone surrogates,
 * U+FFFE and U+FFFF) are written as visible `\uXXXX` text instead, since no
 * escape can carry them.
 *
 * @module
 */

function legal(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * Escapes text for an XML element or attribute value. In attributes, tabs
 * and line breaks become character references so that attribute
 * normalization keeps them.
 *
 * @param text any JavaScript string
 * @param attribute true for an attribute value
 * @returns well-formed XML character data
 */
export function xmlEscape(text: string, attribute = false): string {
  let out = "";
  for (const ch of text) {
    // for...of yields a surrogate pair as one character and a lone surrogate alone
    const code = ch.codePointAt(0)!;
    if (!legal(code)) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else if (ch === "&") out += "&amp;";
    else if (ch === "<") out += "&lt;";
    else if (ch === ">") out += "&gt;";
    else if (ch === '"') out += "&quot;";
    else if (ch === "'") out += "&apos;";
    else if (attribute && ch === "\n") out += "&#10;";
    else if (attribute && ch === "\r") out += "&#13;";
    else if (attribute && ch === "\t") out += "&#9;";
    else if (ch === "\r") out += "&#13;";
    else out += ch;
  }
  return out;
}

/**
 * Text in an HTML page that must show whatever a file or an agent held: the
 * one escaping function the HTML report and the HTML diff share.
 *
 * Plain mode (the report's) escapes `&`, `<`, `>` and `"` (attributes are
 * always double-quoted) and makes unpaired surrogates U+FFFD, since a page's
 * text must be Unicode. Shown mode (`shown: "text"` or `"attribute"`) also
 * makes visible what would otherwise act unseen: bidirectional overrides and
 * isolates (U+202E turns the rest of a line around), control characters
 * (U+001B, NUL) and unpaired surrogates (a byte that is not UTF-8 is read as
 * U+DC80 + byte) become a mark naming the character (`U+202E`, `\xff`), in
 * text as `<span class="cc">`, in an attribute as plain text in `‹›`.
 *
 * Also the style both pages start from, so they look like one tool's.
 *
 * @module
 */

/**
 * The CSS every page starts with: colours, type, tables, code blocks.
 *
 * @example
 * ```ts
 * import { BASE_STYLE } from "./html_page.ts";
 * BASE_STYLE.includes("--line"); // true
 * ```
 */
export const BASE_STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --error: #bc4c00; --skip: #6e7781; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 16px 24px; max-width: 1400px; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 20px 0 8px; } h3 { font-size: 14px; margin: 12px 0 6px; }
.muted { color: #59636e; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; position: sticky; top: 0; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; max-height: 360px; overflow: auto; }
.cc { font: 11px ui-monospace, monospace; color: #fff; background: #8250df; border-radius: 3px; padding: 0 2px; margin: 0 1px; }
`;

/**
 * Characters shown by name: C0 and C1 controls but tab and line feed, bidi
 * controls, U+FEFF, unpaired surrogates; a run of one of them is one mark
 * (`U+0000×16`), so a text of a thousand NULs is not a thousand boxes.
 */
// A RegExp from a string: control characters are what it looks for.
const HIDDEN = new RegExp(
  "([\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\ufeff]" +
    "|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff])\\1*",
  "g",
);

/**
 * Whether a string needs anything done (most values do not): a loop over its
 * code units, several times faster than the regular expression in
 * JavaScriptCore (Bun), where a page of 20,000 cells spent 70 ms in it.
 */
function needsWork(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 0x9 && c !== 0xa) return true;
    } else if (c === 0x26 || c === 0x3c || c === 0x3e || c === 0x22) return true;
    else if (
      c >= 0x7f && (c <= 0x9f || c === 0x61c || c === 0x200e || c === 0x200f ||
        (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0xfeff ||
        (c >= 0xd800 && c <= 0xdfff))
    ) return true;
  }
  return false;
}

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Unpaired surrogates become U+FFFD: a page's text must be Unicode (Chromium
 * aborts on them).
 *
 * @param text any JavaScript string
 * @returns the text, well-formed
 * @example
 * ```ts
 * import { wellFormed } from "./html_page.ts";
 * wellFormed("a\ud800b"); // "a\ufffdb"
 * ```
 */
export function wellFormed(text: string): string {
  return text.replace(LONE, "\uFFFD");
}

function mark(ch: string): string {
  const code = ch.charCodeAt(0);
  // U+DC80..U+DCFF: a byte of text that was not UTF-8 (lib/sqlite/text.ts).
  if (code >= 0xdc80 && code <= 0xdcff) return `\\x${(code - 0xdc00).toString(16)}`;
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${code.toString(16)}`;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** How {@link escapeHtml} treats characters that act unseen. */
export interface EscapeOptions {
  /**
   * `"text"`: each is a `<span class="cc">` naming it, for element content;
   * `"attribute"`: the same name as plain text (`‹U+202E›`). Left out: kept
   * as they are (unpaired surrogates become U+FFFD).
   */
  readonly shown?: "text" | "attribute";
}

/**
 * Escapes text for an HTML element or a double-quoted attribute value.
 *
 * @param text any JavaScript string
 * @param options whether bidi controls, control characters and unpaired surrogates are shown by name
 * @returns HTML text
 * @example
 * ```ts
 * import { escapeHtml } from "./html_page.ts";
 * escapeHtml('<td a="1">&'); // "&lt;td a=&quot;1&quot;&gt;&amp;"
 * escapeHtml("abc\u202Edef", { shown: "text" }); // 'abc<span class="cc">U+202E</span>def'
 * escapeHtml("a\udcff", { shown: "attribute" }); // "a‹\\xff›"
 * ```
 */
export function escapeHtml(text: string, options: EscapeOptions = {}): string {
  const plain = (s: string) =>
    s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
      .replaceAll('"', "&quot;");
  if (options.shown === undefined) return plain(wellFormed(text));
  if (!needsWork(text)) return text;
  const open = options.shown === "text" ? '<span class="cc">' : "‹";
  const close = options.shown === "text" ? "</span>" : "›";
  let out = "";
  let at = 0;
  for (const m of text.matchAll(HIDDEN)) {
    const run = m[0].length / m[1]!.length;
    out += plain(text.slice(at, m.index)) + open + mark(m[1]!) + (run > 1 ? `×${run}` : "") +
      close;
    at = m.index + m[0].length;
  }
  return out + plain(text.slice(at));
}

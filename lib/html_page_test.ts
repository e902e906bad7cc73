import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { escapeHtml } from "./html_page.ts";

const cases: [string, string, "text" | "attribute" | undefined, string][] = [
  ["markup", "<td>&amp;</td>", undefined, "&lt;td&gt;&amp;amp;&lt;/td&gt;"],
  ["a quote in an attribute", 'a" onclick="x', "attribute", "a&quot; onclick=&quot;x"],
  ["a bidi override in text", "ab\u202ecd", "text", 'ab<span class="cc">U+202E</span>cd'],
  ["a bidi isolate in an attribute", "a\u2066b", "attribute", "a‹U+2066›b"],
  ["an escape character", "\u001b[31m", "text", '<span class="cc">U+001B</span>[31m'],
  ["a run of NULs as one mark", "a\0\0\0b", "text", 'a<span class="cc">U+0000×3</span>b'],
  ["tab and line feed kept", "a\tb\nc", "text", "a\tb\nc"],
  ["a byte that was not UTF-8", "a\udcff", "text", 'a<span class="cc">\\xff</span>'],
  ["an unpaired surrogate", "a\ud800", "text", 'a<span class="cc">\\ud800</span>'],
  ["a pair kept whole", "\ud83d\ude00", "text", "\ud83d\ude00"],
  ["an unpaired surrogate, plain", "a\ud800", undefined, "a\ufffd"],
  ["a bidi override, plain", "a\u202e", undefined, "a\u202e"],
];

describe("escapeHtml()", () => {
  for (const [name, text, shown, expected] of cases) {
    it(`escapeHtml() escapes ${name}`, () => {
      assert.equal(escapeHtml(text, shown === undefined ? {} : { shown }), expected);
    });
  }
});

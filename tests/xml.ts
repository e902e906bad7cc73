/**
 * A small, strict XML 1.0 parser for tests of the XML reports: it refuses
 * what a real parser refuses (a character XML cannot hold, a raw `<` or `&`,
 * an unknown entity, a mismatched or unclosed tag, two roots) and returns
 * the element tree with entities decoded.
 *
 * @module
 */

/** An element: its name, attributes, child elements and text. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function legal(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
}

function decode(raw: string, where: number): string {
  if (raw.includes("<")) throw new Error(`raw < at ${where}`);
  return raw.replace(/&([^;]*);|&/g, (all, name: string | undefined) => {
    if (name === undefined) throw new Error(`raw & at ${where}`);
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const value = ENTITIES[name];
    if (value === undefined) throw new Error(`unknown entity ${all} at ${where}`);
    return value;
  });
}

/**
 * Parses an XML document.
 *
 * @param text the document
 * @returns the root element
 * @throws {Error} when the document is not well-formed
 */
export function parseXml(text: string): XmlElement {
  for (const ch of text) {
    if (!legal(ch.codePointAt(0)!)) {
      throw new Error(`character U+${ch.codePointAt(0)!.toString(16)} is not allowed in XML`);
    }
  }
  let i = 0;
  if (text.startsWith("<?xml")) i = text.indexOf("?>") + 2;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const chunk = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (stack.length > 0) stack.at(-1)!.text += decode(chunk, i);
    else if (chunk.trim() !== "") throw new Error(`text outside the root at ${i}`);
    if (lt < 0) break;
    const gt = text.indexOf(">", lt);
    if (gt < 0) throw new Error(`unclosed tag at ${lt}`);
    const tag = text.slice(lt + 1, gt);
    if (tag.startsWith("/")) {
      const open = stack.pop();
      if (open?.name !== tag.slice(1).trim()) {
        throw new Error(`</${tag.slice(1)}> closes <${open?.name}>`);
      }
    } else {
      const selfClosing = tag.endsWith("/");
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const name = /^[A-Za-z_][\w.-]*/.exec(body)?.[0];
      if (name === undefined) throw new Error(`bad tag <${tag}> at ${lt}`);
      const attributes: Record<string, string> = {};
      const rest = body.slice(name.length);
      const re = /\s+([A-Za-z_][\w.-]*)="([^"]*)"/gy;
      let m: RegExpExecArray | null;
      let end = 0;
      while ((m = re.exec(rest)) !== null) {
        if (m[1]! in attributes) throw new Error(`attribute ${m[1]} twice in <${name}>`);
        attributes[m[1]!] = decode(m[2]!, lt);
        end = re.lastIndex;
      }
      if (rest.slice(end).trim() !== "") throw new Error(`bad attributes in <${tag}>`);
      const element: XmlElement = { name, attributes, children: [], text: "" };
      if (stack.length > 0) stack.at(-1)!.children.push(element);
      else if (root === undefined) root = element;
      else throw new Error("two root elements");
      if (!selfClosing) stack.push(element);
    }
    i = gt + 1;
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is not closed`);
  if (root === undefined) throw new Error("no root element");
  return root;
}

/**
 * Every element named `name` under (and including) an element.
 *
 * @param element where to look
 * @param name the element name
 * @returns the elements, in document order
 */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const out = element.name === name ? [element] : [];
  for (const child of element.children) out.push(...findAll(child, name));
  return out;
}

/**
 * The line of a key or value in a parsed YAML (or JSON) document, for the
 * errors of every file a user writes (cases files, dbagenteval.yaml).
 *
 * @module
 */
import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node as YamlNode } from "yaml";

/**
 * Follows `path` (mapping keys and sequence indexes) from `node` and gives
 * the 1-based line of what it reaches: the value, or the key itself when
 * `key` is true. Where the path leaves the document, the line of the last
 * node reached.
 *
 * @param node where the path starts (a document's contents, or one item)
 * @param path the keys and indexes to follow
 * @param counter the line counter the document was parsed with
 * @param key true to point at the last key rather than its value
 * @returns the line, or undefined when nothing was reached
 */
export function yamlLineOf(
  node: unknown,
  path: readonly (string | number)[],
  counter: LineCounter,
  key = false,
): number | undefined {
  let at: YamlNode | undefined = node as YamlNode | undefined;
  for (let i = 0; i < path.length && node !== undefined; i++) {
    const step = path[i]!;
    if (isSeq(node)) {
      node = node.items[Number(step)];
      at = node as YamlNode | undefined;
    } else if (isMap(node)) {
      const pair = node.items.find((p) =>
        isPair(p) && isScalar(p.key) && String(p.key.value) === String(step)
      );
      if (pair === undefined) break;
      const last = i === path.length - 1;
      at = (last && key ? pair.key : pair.value ?? pair.key) as YamlNode;
      node = pair.value;
    } else {
      break;
    }
  }
  const offset = at?.range?.[0];
  return offset === undefined ? undefined : counter.linePos(offset).line;
}

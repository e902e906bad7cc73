/**
 * When `db diff --sql` can add a table's new columns with `ALTER TABLE ...
 * ADD COLUMN` instead of rebuilding the table (rename, create, copy every
 * row, drop): on ten million rows the rebuild took two minutes and grew the
 * file by its size, where the ALTER changes only the schema.
 *
 * SQLite's ALTER TABLE ADD COLUMN (alter.c) writes the new CREATE statement
 * by inserting `, ` and the column's definition, as written in the ALTER, at
 * the end of the column list: before the comma that starts the table
 * constraints, or before the closing parenthesis. So the ALTER can stand in
 * for a rebuild exactly when the after side's statement is the before
 * side's with such insertions and nothing else changed:
 *
 *   before  CREATE TABLE t(id INTEGER PRIMARY KEY, a, UNIQUE(a))
 *   after   CREATE TABLE t(id INTEGER PRIMARY KEY, a, b TEXT DEFAULT 'x', c, UNIQUE(a))
 *   ALTERs  ADD COLUMN b TEXT DEFAULT 'x'; ADD COLUMN c
 *
 * and each new column is one SQLite can add to a table with rows
 * (lang_altertable.html): no PRIMARY KEY or UNIQUE, not a STORED generated
 * column, a default that is a constant (a number, a string, a blob, NULL,
 * not CURRENT_TIME or an expression in parentheses), a NOT NULL column only
 * with a default other than NULL, a REFERENCES column only with a NULL
 * default. Anything else is rebuilt, as before. The rows both sides have
 * then keep their values (a row without the new field reads the column's
 * default, as it does on the after side), and the row changes apply to them.
 *
 * @module
 */
import { sqlTokens, TABLE_CONSTRAINTS, type Token } from "./_create_table.ts";

/**
 * The `ADD COLUMN` definitions that turn `before` (a CREATE TABLE statement
 * as sqlite_schema holds it) into `after`, in order; null when the change is
 * not only added columns, or a new column is one SQLite cannot add.
 *
 * @param before the before side's statement
 * @param after the after side's statement
 * @returns each new column's definition, as written in `after`
 */
export function addedColumnDefinitions(before: string, after: string): string[] | null {
  const at = addColumnOffset(before);
  if (at === null || after.length <= before.length) return null;
  const tail = before.length - at;
  if (!after.startsWith(before.slice(0, at)) || !after.endsWith(before.slice(at))) return null;
  const inserted = after.slice(at, after.length - tail);
  const tokens = sqlTokens(inserted);
  if (tokens === null) return null;
  // Split at the commas outside parentheses: a column definition has none.
  const pieces: Token[][] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === "op" && t.text === "(") depth++;
    if (t.kind === "op" && t.text === ")") depth--;
    if (depth < 0) return null;
    if (depth === 0 && t.kind === "op" && t.text === ",") pieces.push([t]);
    else if (pieces.length === 0) return null;
    else pieces[pieces.length - 1]!.push(t);
  }
  if (depth !== 0 || pieces.length === 0) return null;
  const definitions: string[] = [];
  for (let p = 0; p < pieces.length; p++) {
    const [comma, first] = pieces[p]!;
    const last = pieces[p]!.at(-1)!;
    // SQLite writes ", " and the definition from its first token to its
    // last (a trailing comment or space is not kept).
    if (first === undefined || first.start !== comma!.end + 1 || inserted[comma!.end] !== " ") {
      return null;
    }
    const end = p + 1 < pieces.length ? pieces[p + 1]![0]!.start : inserted.length;
    if (last.end !== end || !addable(pieces[p]!.slice(1), inserted)) return null;
    definitions.push(inserted.slice(first.start, last.end));
  }
  return definitions;
}

/**
 * Where SQLite inserts an added column in `sql`: at the comma that starts
 * the table constraints, else at the parenthesis that closes the column
 * list; null when the statement cannot be read.
 */
function addColumnOffset(sql: string): number | null {
  const tokens = sqlTokens(sql);
  if (tokens === null) return null;
  const open = tokens.findIndex((t) => t.kind === "op" && t.text === "(");
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== "op") continue;
    if (t.text === "(") depth++;
    else if (t.text === ")" && --depth === 0) return t.start;
    else if (t.text === "," && depth === 1) {
      const next = tokens[i + 1];
      if (next?.kind === "id" && TABLE_CONSTRAINTS.has(next.text)) return t.start;
    }
  }
  return null;
}

/** Whether SQLite's ADD COLUMN takes this column definition on a table with rows. */
function addable(def: readonly Token[], text: string): boolean {
  const name = def[0];
  if (name === undefined || (name.kind !== "id" && name.kind !== "q")) return false;
  if (name.kind === "id" && TABLE_CONSTRAINTS.has(name.text)) return false;
  let depth = 0;
  let notNull = false;
  let references = false;
  let generated = false;
  /** The default: absent, NULL, or another constant; undefined when it is not a constant. */
  let dflt: "none" | "null" | "value" | undefined = "none";
  for (let i = 1; i < def.length; i++) {
    const t = def[i]!;
    if (t.kind === "op" && t.text === "(") depth++;
    if (t.kind === "op" && t.text === ")") depth--;
    if (depth > 0 || t.kind !== "id") continue;
    const word = t.text;
    if (word === "PRIMARY" || word === "UNIQUE" || word === "STORED") return false;
    if (word === "NOT" && def[i + 1]?.kind === "id" && def[i + 1]!.text === "NULL") notNull = true;
    if (word === "REFERENCES") references = true;
    if (word === "AS") generated = true;
    if (word === "DEFAULT") dflt = constantDefault(def, i + 1, text);
  }
  if (dflt === undefined) return false;
  if (generated) return !notNull && dflt === "none";
  if (notNull && dflt !== "value") return false;
  return !(references && dflt === "value");
}

/**
 * The default starting at token `i`: NULL, a constant value, or undefined
 * for anything SQLite may refuse (CURRENT_TIME, an expression in
 * parentheses, a bare word, a double-quoted name).
 */
function constantDefault(
  def: readonly Token[],
  i: number,
  text: string,
): "null" | "value" | undefined {
  let t = def[i];
  if (t?.kind === "op" && (t.text === "+" || t.text === "-")) {
    t = def[i + 1];
    return t?.kind === "num" ? "value" : undefined;
  }
  if (t === undefined) return undefined;
  if (t.kind === "num" || t.kind === "blob") return "value";
  if (t.kind === "q") return text[t.start] === "'" ? "value" : undefined;
  if (t.kind === "id" && t.text === "NULL") return "null";
  return undefined;
}

/**
 * The layout of the repository's code: its rooms (the top-level folders of
 * `lib/`, `rules/`, `selector/`, and `mod.ts`, `cli.ts`), in floors from the
 * top, and the imports between them read from the source. Two rules hold:
 *
 * - an import points down: from a room to a room on a lower floor (so no
 *   circle across rooms can form); and
 * - a file whose name starts with `_` is private to its folder: nothing in
 *   another folder imports it, tests, benchmarks and tools included.
 *
 * `tools/layout_test.ts` fails on any import that breaks them, and on a
 * picture in docs/architecture.md that differs from {@link layoutPicture}'s.
 * `deno run -A tools/layout.ts` prints the picture, then the breaks; with
 * `--write` it also puts the picture in docs/architecture.md.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";

/**
 * The floors, from the top. A room imports only rooms on floors below its
 * own. `lib/*.ts` is the files at the top of lib/ (errors, version, option
 * parsers, text-file reading, row sets, the host-process helper).
 */
export const FLOORS: readonly (readonly string[])[] = [
  ["cli.ts"],
  ["lib/cli"],
  ["mod.ts"],
  ["lib/run"],
  ["rules", "lib/judge", "lib/agents", "lib/counterexample"],
  ["lib/eval"],
  ["selector"],
  ["lib/diff", "lib/compare", "lib/databases"],
  ["lib/sqlite_format"],
  ["lib/sqlite"],
  ["lib/isolation", "lib/http"],
  ["lib/*.ts"],
];

/**
 * Files that start a process or a worker of their own and import what they
 * host: nothing imports them, so they sit above every room. A pool worker
 * loads each service from the room that defines it.
 */
export const ENTRY_POINTS: readonly string[] = ["lib/isolation/worker.ts"];

/** The folders whose TypeScript is read. */
const SOURCE_DIRS = ["lib", "rules", "selector", "tests", "tools", "bench", "examples"];
const SKIP = new Set(["node_modules", ".git", "dist", "testdata", "data", "golden"]);

/** One import: the importing file, the imported file, both relative to the repository. */
export interface Import {
  readonly from: string;
  readonly to: string;
}

/** What {@link readLayout} found. */
export interface Layout {
  /** Room -> the rooms it imports (library code only, tests left out). */
  readonly arrows: ReadonlyMap<string, ReadonlySet<string>>;
  /** Imports from a room to one on its floor or above. */
  readonly upward: readonly Import[];
  /** Imports of a `_` file from another folder. */
  readonly privateAcross: readonly Import[];
  /** Library files in no room of {@link FLOORS}. */
  readonly unplaced: readonly string[];
}

function walk(root: string, dir: string, out: string[]): void {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) walk(root, rel, out);
    else if (/\.(ts|js)$/.test(entry.name)) out.push(rel);
  }
}

/**
 * The room a library file is in, or undefined for one outside the library
 * (tests/, tools/, bench/, examples/).
 *
 * @param file a path relative to the repository, with `/`
 * @returns the room
 */
export function roomOf(file: string): string | undefined {
  const parts = file.split("/");
  if (parts.length === 1) return file === "mod.ts" || file === "cli.ts" ? file : undefined;
  if (parts[0] === "lib") return parts.length === 2 ? "lib/*.ts" : `lib/${parts[1]}`;
  return parts[0] === "rules" || parts[0] === "selector" ? parts[0] : undefined;
}

/** A test file or a test helper: it may use rooms above the code it tests. */
function isTest(file: string): boolean {
  return /_test\.ts$|(^|\/)_test_[^/]*\.ts$|_test_util\.ts$/.test(file) ||
    file.startsWith("tests/");
}

/**
 * The relative imports of a source text, static and dynamic, comments left out.
 *
 * @param text the source
 * @returns the specifiers, e.g. `../eval/trace.ts`
 */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  const pattern = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/**
 * Reads every import of the repository's TypeScript and sorts it against the floors.
 *
 * @param root the repository
 * @returns the arrows between rooms and the imports that break the rules
 */
export function readLayout(root: string): Layout {
  const files: string[] = ["mod.ts", "cli.ts"];
  for (const dir of SOURCE_DIRS) walk(root, dir, files);
  const floor = new Map<string, number>();
  FLOORS.forEach((rooms, i) => rooms.forEach((r) => floor.set(r, i)));
  const arrows = new Map<string, Set<string>>();
  const upward: Import[] = [];
  const privateAcross: Import[] = [];
  const unplaced = new Set<string>();
  for (const from of files) {
    const text = fs.readFileSync(path.join(root, from), "utf8");
    for (const specifier of importsOf(text)) {
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
      if (
        path.posix.basename(to).startsWith("_") &&
        path.posix.dirname(to) !== path.posix.dirname(from)
      ) {
        privateAcross.push({ from, to });
      }
      const a = roomOf(from);
      const b = roomOf(to);
      if (a === undefined || b === undefined || a === b) continue;
      if (isTest(from) || ENTRY_POINTS.includes(from)) continue;
      for (const room of [a, b]) if (!floor.has(room)) unplaced.add(room);
      if (!floor.has(a) || !floor.has(b)) continue;
      (arrows.get(a) ?? arrows.set(a, new Set()).get(a)!).add(b);
      if (floor.get(b)! <= floor.get(a)!) upward.push({ from, to });
    }
  }
  return { arrows, upward, privateAcross, unplaced: [...unplaced].sort() };
}

/**
 * The layout as text: the floors from the top, each room with the rooms it
 * imports, nearest floor first. Every arrow points down the page.
 *
 * @param layout what readLayout() found
 * @returns the picture, lines of at most 100 characters
 */
export function layoutPicture(layout: Layout): string {
  const floor = new Map<string, number>();
  FLOORS.forEach((rooms, i) => rooms.forEach((r) => floor.set(r, i)));
  const width = Math.max(...FLOORS.flat().map((r) => r.length));
  const lines: string[] = [];
  FLOORS.forEach((rooms, i) => {
    if (i > 0) lines.push("");
    for (const room of rooms) {
      const targets = [...(layout.arrows.get(room) ?? [])]
        .sort((x, y) => floor.get(x)! - floor.get(y)! || x.localeCompare(y));
      const head = `${room.padEnd(width)}  `;
      let line = targets.length === 0 ? room : `${head}-> `;
      const indent = " ".repeat(head.length + 3);
      targets.forEach((t, j) => {
        const word = j === 0 ? t : ` ${t}`;
        if (line.length + word.length > 100) {
          lines.push(line);
          line = indent + t;
        } else line += word;
      });
      lines.push(line);
    }
  });
  return lines.join("\n");
}

/** The marker above the picture's code block in docs/architecture.md. */
export const PICTURE_MARKER = "<!-- layout: tools/layout.ts -->";

/**
 * docs/architecture.md with its picture (the code block under
 * {@link PICTURE_MARKER}) replaced by this one.
 *
 * @param doc the page
 * @param picture the picture
 * @returns the page, or undefined when it has no marker
 */
export function withPicture(doc: string, picture: string): string | undefined {
  // deno fmt keeps a blank line between the marker and the block.
  const head = `${PICTURE_MARKER}\n\n\`\`\`\n`;
  const at = doc.indexOf(head);
  if (at < 0) return undefined;
  const start = at + head.length;
  const end = doc.indexOf("\n```", start);
  return `${doc.slice(0, start)}${picture}${doc.slice(end)}`;
}

if (import.meta.main) {
  const layout = readLayout(process.cwd());
  const picture = layoutPicture(layout);
  if (process.argv.includes("--write")) {
    const file = path.join(process.cwd(), "docs/architecture.md");
    const doc = withPicture(fs.readFileSync(file, "utf8"), picture);
    if (doc === undefined) {
      throw new Error(`docs/architecture.md: no ${PICTURE_MARKER} above a code block`);
    }
    fs.writeFileSync(file, doc);
  }
  console.log(picture);
  const problems = [
    ...layout.upward.map((i) => `up: ${i.from} -> ${i.to}`),
    ...layout.privateAcross.map((i) => `private: ${i.from} -> ${i.to}`),
    ...layout.unplaced.map((r) => `no floor: ${r}`),
  ];
  if (problems.length > 0) console.log(`\n${problems.join("\n")}`);
}

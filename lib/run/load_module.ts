/**
 * Loads `file:export` references given on the command line (`--agent
 * shop.ts:myAgent`, `--rules shop:RULES`, `--execute examples.toy_agent:run_sql`)
 * by dynamic import of the file's absolute URL, which works the same under
 * Deno, under Bun and in the bun-compiled binary.
 *
 * The file part is found relative to the current folder:
 * - with an extension (`shop.ts`, `lib/agent.js`): that file;
 * - without one (`shop`): `shop.ts`, then `shop.js` (also `.mts`, `.mjs`);
 * - dotted, as the Python version wrote modules (`examples.toy_agent`): also
 *   `examples/toy_agent.ts` and `.js`.
 *
 * The export part may be written in snake_case, as Python users write it (`my_agent`,
 * `run_sql`): when the module has no such export but has its camelCase twin
 * (`myAgent`, `runSql`), the twin is used, and the other way round.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UsageError } from "../errors.ts";

const EXTENSIONS = [".ts", ".js", ".mts", ".mjs", ".tsx", ".jsx", ".cts", ".cjs"];
const PACKAGE_NAMES = ["dbagenteval", "@dbagenteval/dbagenteval"];

/** A `file:export` reference, split. */
export interface ModuleRef {
  /** The file part as the user wrote it, e.g. `shop`. */
  readonly module: string;
  /** The export name as the user wrote it, e.g. `my_agent`. */
  readonly exportName: string;
}

/**
 * Splits `file:export` at its last colon (a Windows drive letter keeps its own).
 *
 * @param option the option's name, for messages, e.g. `--agent`
 * @param ref what the user wrote
 * @returns the two parts
 */
export function parseModuleRef(option: string, ref: string): ModuleRef {
  const at = ref.lastIndexOf(":");
  const module = at > 0 ? ref.slice(0, at) : "";
  const exportName = at > 0 ? ref.slice(at + 1) : "";
  if (module === "" || exportName === "" || /^[A-Za-z]$/.test(module)) {
    throw new UsageError(
      `${option} "${ref}": expected file:export, for example shop.ts:myAgent`,
    );
  }
  return { module, exportName };
}

/**
 * The files a module reference may name, in the order they are tried.
 *
 * @param module the file part, e.g. `shop`, `shop.ts` or `examples.toy_agent`
 * @param cwd the folder it is relative to
 * @returns absolute candidate paths
 */
export function moduleCandidates(module: string, cwd: string): string[] {
  if (EXTENSIONS.includes(path.extname(module))) return [path.resolve(cwd, module)];
  const stems = [module];
  if (module.includes(".") && !/[\\/]/.test(module)) stems.push(module.replaceAll(".", "/"));
  return stems.flatMap((stem) =>
    EXTENSIONS.slice(0, 4).map((ext) => path.resolve(cwd, stem + ext))
  );
}

let pluginInstalled = false;
const OWN_ENTRY = path.resolve(import.meta.dirname ?? ".", "..", "..", "mod.ts");

/** Whether `file` is this package's own mod.ts (the one beside its deno.json). */
function isPackageEntry(file: string): boolean {
  try {
    const manifest = fs.readFileSync(path.join(path.dirname(file), "deno.json"), "utf8");
    return manifest.includes(`"${PACKAGE_NAMES[1]}"`);
  } catch {
    return false;
  }
}

interface BunPluginBuild {
  module(name: string, load: () => unknown): void;
  onLoad(
    options: { filter: RegExp },
    load: (args: { path: string }) => unknown,
  ): void;
}

let ownPackage: (() => Promise<unknown>) | undefined;

/**
 * Makes the modules loaded from now on get `load()`'s module when they
 * import the package (see installPackageAlias): the CLI passes its own
 * mod.ts, which this room, below mod.ts, cannot import. A script that
 * calls the library has the package installed and needs no alias.
 *
 * @param load imports the package's mod.ts
 * @example
 * ```ts
 * import { aliasOwnPackage } from "./load_module.ts";
 * aliasOwnPackage(() => import("../../mod.ts"));
 * ```
 */
export function aliasOwnPackage(load: () => Promise<unknown>): void {
  ownPackage = load;
}

/**
 * Under Bun, and in the compiled binary (which has no node_modules), a user
 * module that imports the package, by name (`dbagenteval`,
 * `@dbagenteval/dbagenteval`) or by the path of a checkout's mod.ts (as the
 * repository's examples do), gets this very copy of the library: its classes
 * are the CLI's classes, and the binary needs no dependency on disk. Deno
 * resolves names through the user's own import map, and a path to the same
 * mod.ts is the same module anyway.
 */
function installPackageAlias(): void {
  const own = ownPackage;
  if (pluginInstalled || own === undefined) return;
  pluginInstalled = true;
  const bun = (globalThis as { Bun?: { plugin?: (plugin: unknown) => void } }).Bun;
  if (bun?.plugin === undefined) return;
  const self = async () => ({ exports: await own(), loader: "object" });
  bun.plugin({
    name: "dbagenteval-self",
    setup(build: BunPluginBuild) {
      for (const name of PACKAGE_NAMES) build.module(name, self);
      build.onLoad({ filter: /[\\/]mod\.ts$/ }, (args) => {
        // Our own mod.ts (Bun running from a checkout) loads as usual: it is
        // the very module self() imports. Another checkout's mod.ts, or any
        // on disk in the binary (whose own copy is bundled), becomes ours.
        if (args.path !== OWN_ENTRY && isPackageEntry(args.path)) return self();
        return { contents: fs.readFileSync(args.path, "utf8"), loader: "ts" };
      });
    },
  });
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "unknown error";
}

/**
 * Where a module failed to compile, as `file:line:column` relative to `cwd`:
 * Deno ends a syntax error's message with `at file:///...:1:20`, Bun gives a
 * BuildMessage with a `position`. Undefined for other errors (one thrown by
 * the module's own code names its place itself, in its message or stack).
 */
function syntaxErrorPlace(error: unknown, cwd: string): string | undefined {
  const position = (error as { position?: { file?: unknown; line?: unknown; column?: unknown } })
    ?.position;
  const m = /\bat (file:\/\/\S+?):(\d+):(\d+)\s*$/.exec(
    error instanceof Error ? error.message : "",
  );
  const [file, line, column] = typeof position?.file === "string"
    ? [position.file, position.line, position.column]
    : m !== null
    ? [fileURLToPath(m[1]!), Number(m[2]), Number(m[3])]
    : [];
  if (file === undefined || typeof line !== "number") return undefined;
  return `${path.relative(cwd, file)}:${line}${typeof column === "number" ? `:${column}` : ""}`;
}

/** The names an export may go by: as written, its camelCase twin, its snake_case twin. */
function exportNames(name: string): string[] {
  const camel = name.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
  const humps = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2");
  const snake = humps === name ? name : humps.toLowerCase();
  return [...new Set([name, camel, snake])];
}

const cache = new Map<string, Promise<Record<string, unknown>>>();

/**
 * Imports the module a reference names (once per file per process).
 *
 * @param module the file part
 * @param cwd the folder it is relative to
 * @returns the module namespace and the file it came from
 */
async function importModule(
  module: string,
  cwd: string,
): Promise<{ file: string; namespace: Record<string, unknown> }> {
  const candidates = moduleCandidates(module, cwd);
  const file = candidates.find((f) => fs.statSync(f, { throwIfNoEntry: false })?.isFile());
  if (file === undefined) {
    const names = candidates.map((f) => path.relative(cwd, f));
    const tried = names.length === 1
      ? names[0]
      : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
    throw new UsageError(
      `cannot import '${module}': no ${tried} in ${cwd}; run the command from the folder ` +
        `that has the file, and check the spelling of the file name`,
    );
  }
  installPackageAlias();
  let loading = cache.get(file);
  if (loading === undefined) {
    loading = import(pathToFileURL(file).href) as Promise<Record<string, unknown>>;
    cache.set(file, loading);
  }
  try {
    return { file, namespace: await loading };
  } catch (error) {
    const place = syntaxErrorPlace(error, cwd);
    throw new UsageError(
      `cannot import '${module}': ${firstLine(error)}${place === undefined ? "" : ` (${place})`}`,
      { cause: error },
    );
  }
}

/**
 * Loads the value a `file:export` reference names.
 *
 * @param option the option's name, for messages, e.g. `--agent`
 * @param ref what the user wrote, e.g. `shop:my_agent`
 * @param cwd the folder the file is relative to (default: the current folder)
 * @returns the exported value
 * @example
 * ```ts
 * import { loadExport } from "./load_module.ts";
 * const agent = await loadExport("--agent", "examples/toy_agent.ts:agent");
 * typeof agent; // "function"
 * ```
 */
export async function loadExport(
  option: string,
  ref: string,
  cwd: string = process.cwd(),
): Promise<unknown> {
  const { module, exportName } = parseModuleRef(option, ref);
  const { file, namespace } = await importModule(module, cwd);
  for (const name of exportNames(exportName)) {
    if (Object.hasOwn(namespace, name)) return namespace[name];
  }
  // `default` is listed too: `file:default` loads it.
  const names = Object.keys(namespace).sort();
  throw new UsageError(
    `${option} ${ref}: ${path.relative(cwd, file)} has no export '${exportName}'; ` +
      (names.length === 0 ? "it exports nothing" : `it exports ${names.join(", ")}`),
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Loads a function export (an agent, an executor, a judge).
 *
 * @param option the option's name, for messages
 * @param ref what the user wrote
 * @param cwd the folder the file is relative to
 * @returns the function
 */
export async function loadFunction(
  option: string,
  ref: string,
  cwd: string = process.cwd(),
): Promise<(...args: never[]) => unknown> {
  const value = await loadExport(option, ref, cwd);
  if (typeof value !== "function") {
    throw new UsageError(`${option} ${ref} is ${describe(value)}, not a function`);
  }
  return value as (...args: never[]) => unknown;
}

/** A check as the harness duck-types it: a string `name` and a `run` function. */
export interface CheckLike {
  readonly name: string;
  run(...args: never[]): unknown;
}

/**
 * Loads a list of checks (`--rules shop:RULES`). A single check is taken as
 * a list of one.
 *
 * @param option the option's name, for messages
 * @param ref what the user wrote
 * @param cwd the folder the file is relative to
 * @returns the checks
 */
export async function loadChecks(
  option: string,
  ref: string,
  cwd: string = process.cwd(),
): Promise<CheckLike[]> {
  const value = await loadExport(option, ref, cwd);
  const list: unknown[] = Array.isArray(value) ? value : [value];
  return list.map((item, i) => {
    const at = Array.isArray(value) ? `item ${i + 1}` : "it";
    if (typeof item === "function") {
      throw new UsageError(
        `${option} ${ref}: ${at} is a class or function, not a check; ` +
          `write new ${item.name || "MyRule"}() in the list`,
      );
    }
    const check = item as { name?: unknown; run?: unknown } | null;
    if (
      typeof check !== "object" || check === null || typeof check.name !== "string" ||
      typeof check.run !== "function"
    ) {
      throw new UsageError(
        `${option} ${ref}: ${at} is not a check; a check has a string name and a run function`,
      );
    }
    return check as CheckLike;
  });
}

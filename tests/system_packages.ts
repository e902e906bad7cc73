/**
 * The system packages some tests use beside Deno or Bun, in one table: each
 * tool, the Debian package that brings it, and how to find it. A test that
 * needs one asks {@link needs} for node:test's `{ skip }`: on a machine
 * without it the test skips, and one line on stderr names the package to
 * install (once per tool and process), so `deno task test` passes on a fresh
 * machine. With DBAGENTEVAL_REQUIRE_SYSTEM=1 (as .ci/run sets) a missing
 * tool is a failure instead, so CI never passes by skipping.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";

/** The executable file `name` on the PATH, or undefined. */
function which(name: string): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function onPath(name: string): boolean {
  return which(name) !== undefined;
}

/** The Chromium the HTML report's test drives: $CHROMIUM, or Debian's `chromium` on the PATH. */
export const CHROMIUM: string = process.env["CHROMIUM"] ?? which("chromium") ?? "chromium";

/**
 * A copy of SQLite's source tree, for its test suite's damaged databases
 * (tests/sqlite_dumps.ts): $DBAGENTEVAL_SQLITE_SOURCE, or where .ci/run
 * unpacks Debian's (`.ci/sqlite_source`).
 */
export const SQLITE_SOURCE: string = process.env["DBAGENTEVAL_SQLITE_SOURCE"] ??
  "/usr/src/sqlite3";

/** The arm64 C library qemu-user runs the linux-arm64 binary with. */
export const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";

interface SystemTool {
  /** The Debian package to install (for Bun: the npm package). */
  readonly package: string;
  /** The command that installs it, when not `apt-get install PACKAGE`. */
  readonly install?: string;
  /** What it is for in the tests. */
  readonly usedFor: string;
  readonly found: () => boolean;
}

/** Every tool a test may need, with its package. */
export const SYSTEM_TOOLS = {
  bun: {
    package: "bun",
    install: "npm install -g bun",
    usedFor: "Bun, which builds the release binary and installs the packed package",
    found: () => onPath("bun"),
  },
  mkfifo: {
    package: "coreutils",
    usedFor: "mkfifo, which makes the named pipes the fault tests give the CLI as files",
    found: () => onPath("mkfifo"),
  },
  python3: {
    package: "python3",
    usedFor: "the Python and HTTP example agents",
    found: () => onPath("python3"),
  },
  sqlite3: {
    package: "sqlite3",
    usedFor: "the sqlite3 shell, which checks db diff's SQL",
    found: () => onPath("sqlite3"),
  },
  git: {
    package: "git",
    usedFor:
      "git, whose diff driver shows a database's rows (docs/how-to/diff-databases-in-git.md)",
    found: () => onPath("git"),
  },
  deno: {
    package: "deno",
    install: "curl -fsSL https://deno.land/install.sh | sh",
    usedFor: "Deno, which runs cli.ts as git's diff driver in the Bun runs too",
    found: () => onPath("deno"),
  },
  sqldiff: {
    package: "sqlite3-tools",
    usedFor: "sqldiff, which db diff is checked against",
    found: () => onPath("sqldiff"),
  },
  sqliteSource: {
    package: "the sqlite3 source package",
    install: `.ci/sqlite_source ${SQLITE_SOURCE} (apt-get source sqlite3, unpacked there; ` +
      "or DBAGENTEVAL_SQLITE_SOURCE=a copy of SQLite's source tree)",
    usedFor: "SQLite's source tree, whose test suite's damaged databases the reader is checked on",
    found: () => fs.existsSync(path.join(SQLITE_SOURCE, "test", "corruptL.test")),
  },
  chromium: {
    package: "chromium",
    usedFor: "headless Chromium, which opens the HTML report",
    found: () => fs.existsSync(CHROMIUM),
  },
  psql: {
    package: "postgresql-client",
    usedFor: "psql and createdb, which load Chinook into the test server as docs/postgres.md shows",
    found: () => onPath("psql") && onPath("createdb"),
  },
  qemu: {
    package: "qemu-user",
    usedFor: "qemu-aarch64, which runs the linux-arm64 release binary",
    found: () => onPath("qemu-aarch64") || onPath("qemu-aarch64-static"),
  },
  arm64libc: {
    package: "libc6-arm64-cross",
    usedFor: "the arm64 C library the linux-arm64 binary runs with under qemu",
    found: () => fs.existsSync(path.join(ARM64_SYSROOT, "lib", "ld-linux-aarch64.so.1")),
  },
} as const satisfies Record<string, SystemTool>;

/** A tool some test needs. */
export type SystemToolName = keyof typeof SYSTEM_TOOLS;

/** Whether a missing tool (or PostgreSQL server) fails the tests rather than skipping them. */
export function systemRequired(): boolean {
  return process.env["DBAGENTEVAL_REQUIRE_SYSTEM"] === "1";
}

const said = new Set<string>();

function installCommand(tool: SystemTool): string {
  return tool.install ?? `apt-get install ${tool.package}`;
}

/**
 * What to pass as node:test's `skip` for a test that needs these tools: false
 * when all are there, else the reason, also written once on stderr as
 * `SKIPPING tests that need python3: apt-get install python3`.
 *
 * @param tools the tools the test runs
 * @returns false, or the skip reason
 * @throws {Error} when a tool is missing and DBAGENTEVAL_REQUIRE_SYSTEM=1
 */
export function needs(...tools: SystemToolName[]): string | false {
  const missing = tools.filter((t) => !SYSTEM_TOOLS[t].found());
  if (missing.length === 0) return false;
  const reason = `needs ${missing.join(" and ")}: ${
    [...new Set(missing.map((t) => installCommand(SYSTEM_TOOLS[t])))].join("; ")
  }`;
  if (systemRequired()) {
    throw new Error(`DBAGENTEVAL_REQUIRE_SYSTEM=1 but this test ${reason}`);
  }
  for (const t of missing) {
    if (said.has(t)) continue;
    said.add(t);
    const tool = SYSTEM_TOOLS[t];
    process.stderr.write(
      `SKIPPING tests that need ${t} (${tool.usedFor}): ${installCommand(tool)}\n`,
    );
  }
  return reason;
}

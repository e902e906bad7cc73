#!/usr/bin/env -S deno run --allow-all
/**
 * `deno task test`: runs `deno test` and keeps it short when everything
 * passes: one line per test file is 1,500 lines nobody reads, so the output
 * is shown in full only when a test fails (from its ERRORS section, with
 * the failures and the summary); otherwise only the summary line. Either way
 * it ends with one line per system package whose tests were skipped because
 * it is missing (tests/system_packages.ts). While it runs, stderr shows how far it is:
 * one updating line on a terminal, a line every 20 s in a CI log, since the
 * whole suite takes minutes. Arguments are passed on to `deno test`
 * (`deno task test lib/eval` runs one folder).
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import process from "node:process";
import { stripVTControlCharacters } from "node:util";

const given = process.argv.slice(2).filter((a) => a !== "--quiet");
const started = Date.now();
// The files are type-checked once, up front (`deno test --no-run` checks
// what `deno test` would run), and then run with --no-check: otherwise
// deno test checks the module graph of every worker thread a test starts
// again (the worker pool's, lib/isolation/pool.ts), about 1.5 s of CPU
// each, 10-20 s on a busy 2-core runner, for every pool a test makes.
process.stderr.write("deno test: type-checking...\n");
const check = spawnSync(process.execPath, ["test", "--no-run", "--quiet", ...given], {
  encoding: "utf8",
  stdio: ["inherit", "pipe", "pipe"],
});
if (check.status !== 0) {
  process.stdout.write(`${check.stdout}${check.stderr}`);
  process.exit(check.status ?? 1);
}
// Not --quiet: it hides what a test file writes while it loads, which is
// where a missing system package's SKIPPING line is.
const args = [
  "test",
  "--allow-all",
  "--no-check",
  "--junit-path=.test-results/deno.xml",
  ...given,
];
process.stderr.write("deno test: running (the details are shown if a test fails)...\n");
const child = spawn(process.execPath, args, { stdio: ["inherit", "pipe", "pipe"] });
const chunks: Buffer[] = [];
const skips = new Set<string>();
const counts = { files: 0, tests: 0, failed: 0 };
let partial = "";

/** Counts what a line of deno test's output says: a file started, a test (or step) done. */
function count(line: string): void {
  const plain = stripVTControlCharacters(line);
  if (/^running \d+ tests? from /.test(plain)) counts.files++;
  else if (/ \.\.\. (ok|FAILED|ignored)\b/.test(plain)) {
    counts.tests++;
    if (/ \.\.\. FAILED\b/.test(plain)) counts.failed++;
  } else if (plain.startsWith("SKIPPING ")) skips.add(plain);
}

function onData(chunk: Buffer): void {
  chunks.push(chunk);
  const lines = (partial + chunk.toString("utf8")).split("\n");
  partial = lines.pop() ?? "";
  lines.forEach(count);
}
child.stdout.on("data", onData);
child.stderr.on("data", onData);

const tty = process.stderr.isTTY === true;
function progress(): string {
  const s = Math.round((Date.now() - started) / 1000);
  const time = s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `deno test: ${counts.files} files, ${counts.tests} tests done, ${counts.failed} failed (${time})`;
}
const timer = setInterval(() => {
  process.stderr.write(tty ? `\r${progress()}\x1b[K` : `${progress()}\n`);
}, tty ? 1000 : 20_000);

child.on("close", (code) => {
  clearInterval(timer);
  if (partial !== "") count(partial);
  process.stderr.write(tty ? `\r${progress()}\x1b[K\n` : `${progress()}\n`);
  const output = Buffer.concat(chunks).toString("utf8");
  const plain = stripVTControlCharacters(output);
  if (code === 0) {
    const summary = plain.split("\n").filter((l) => /^(ok|FAILED) \| /.test(l));
    process.stdout.write(`${summary.join("\n") || "ok"}\n`);
    for (const line of skips) process.stdout.write(`${line}\n`);
  } else {
    const errors = output.search(/ ERRORS /);
    process.stdout.write(
      errors === -1 ? output : output.slice(Math.max(0, output.lastIndexOf("\n", errors))),
    );
    // The failures come first; what did not run at all is said after them too.
    if (skips.size > 0) process.stdout.write(`\n${[...skips].join("\n")}\n`);
  }
  process.exitCode = code ?? 1;
});

#!/usr/bin/env -S deno run --allow-all
/**
 * `deno task test`: runs `deno test` and keeps it short when everything
 * passes: one line per test file is 1,500 lines nobody reads, so the output
 * is shown in full only when a test fails (from its ERRORS section, with
 * the failures and the summary); otherwise only the summary line. Arguments
 * are passed on to `deno test` (`deno task test lib/eval` runs one folder).
 *
 * @module
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { stripVTControlCharacters } from "node:util";

const args = [
  "test",
  "--allow-all",
  "--quiet",
  "--junit-path=.test-results/deno.xml",
  ...process.argv.slice(2).filter((a) => a !== "--quiet"),
];
process.stderr.write("deno test: running (the details are shown if a test fails)...\n");
const child = spawn(process.execPath, args, { stdio: ["inherit", "pipe", "pipe"] });
const chunks: Buffer[] = [];
child.stdout.on("data", (c: Buffer) => chunks.push(c));
child.stderr.on("data", (c: Buffer) => chunks.push(c));
child.on("close", (code) => {
  const output = Buffer.concat(chunks).toString("utf8");
  const plain = stripVTControlCharacters(output);
  if (code === 0) {
    const summary = plain.split("\n").filter((l) => /^(ok|FAILED) \| /.test(l));
    process.stdout.write(`${summary.join("\n") || "ok"}\n`);
  } else {
    const errors = output.search(/ ERRORS /);
    process.stdout.write(
      errors === -1 ? output : output.slice(Math.max(0, output.lastIndexOf("\n", errors))),
    );
  }
  process.exitCode = code ?? 1;
});

/**
 * Headless Chromium for the tests of HTML pages (the run report, the diff
 * page): Debian's package, driven by its command-line switches
 * (--dump-dom, --screenshot), which work the same under Deno and Bun.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { inflateSync } from "node:zlib";
import { CHROMIUM } from "./system_packages.ts";

export interface Page {
  readonly dom: string;
  /** What the page logged: console messages and uncaught errors. */
  readonly console: string[];
}

/**
 * Loads a file in headless Chromium; returns the DOM after its scripts ran,
 * or writes a screenshot. Each load gets a fresh profile folder under
 * `profiles` (the caller's temp folder, which it removes).
 */
export function openInChromium(
  file: string,
  options: { hash?: string; screenshot?: string; profiles: string; windowSize?: string },
): Page {
  const profile = fs.mkdtempSync(path.join(options.profiles, "profile-"));
  const url = `file://${file}${options.hash === undefined ? "" : `#${options.hash}`}`;
  const r = spawnSync(CHROMIUM, [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    `--user-data-dir=${profile}`,
    "--enable-logging=stderr",
    "--v=0",
    `--window-size=${options.windowSize ?? "1280,1000"}`,
    ...(options.screenshot !== undefined ? [`--screenshot=${options.screenshot}`] : ["--dump-dom"]),
    url,
  ], { encoding: "utf8", timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(
    r.error,
    undefined,
    `cannot start ${CHROMIUM}: ${r.error}; install Debian's chromium`,
  );
  assert.equal(r.status, 0, `chromium exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const consoleLines = r.stderr.split("\n").filter((l) => /:CONSOLE[:(]/.test(l));
  return { dom: r.stdout, console: consoleLines };
}

/** Width, height and whether the pixels vary, from a PNG's header and inflated data. */
export function pngFacts(file: string): { width: number; height: number; distinct: number } {
  const png = fs.readFileSync(file);
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "a PNG file");
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(idat));
  return { width, height, distinct: new Set(pixels).size };
}

/**
 * End to end: a PostgreSQL URL's password never appears in what a command
 * prints or writes, on any of its error paths (an unreachable server, a URL
 * that is not one, a refused superuser, a query that fails, a case that
 * times out) nor on its success paths (the counterexample's "how it differs
 * from" line, the reports).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { NO_SERVER, POSTGRES_SUPERUSER_URL, POSTGRES_URL } from "./postgres_server.ts";

const dir = tempDir("dbagenteval-secrets-");
after(() => dir.cleanup());

/** A password that is no one's: whatever quotes it, it must not reach the output. */
const MADE_UP = "pw-never-shown-31337";

const cases = dir.file("cases.yaml");
fs.writeFileSync(
  cases,
  [
    "- id: broken",
    "  question: How many genres are there?",
    "  reference_sql: SELECT count(*) FROM nope",
    "- id: slow",
    "  question: How many genres are there?",
    "  reference_sql: SELECT count(*) AS n FROM genre",
    "- id: near",
    "  question: How many long tracks are there?",
    "  reference_sql: SELECT count(*) AS n FROM track WHERE milliseconds > 300000",
  ].join("\n"),
);
const predictions = dir.file("predictions.sql");
fs.writeFileSync(
  predictions,
  [
    "SELECT count(*) FROM genre",
    "SELECT pg_sleep(30)",
    "SELECT count(*) AS n FROM track WHERE milliseconds >= 300000",
  ].join("\n"),
);

/** Every output of a run: its reports, next to the run. */
function reports(name: string): string[] {
  const out = dir.file(name);
  fs.mkdirSync(out, { recursive: true });
  return ["--json", "run.json", "--md", "run.md", "--junit", "run.xml", "--html", "run.html"]
    .map((a, i) => i % 2 === 0 ? a : path.join(out, a));
}

/** What a run printed and every file it wrote. */
function everything(stdout: string, stderr: string, out?: string): string {
  const files = out === undefined || !fs.existsSync(out)
    ? []
    : fs.readdirSync(out).map((f) => fs.readFileSync(path.join(out, f), "utf8"));
  return [stdout, stderr, ...files].join("\n");
}

function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = password;
  return u.href;
}

describe("no command prints a PostgreSQL password", () => {
  const unreachable = `postgres://me:${MADE_UP}@127.0.0.1:1/chinook`;
  const counterexample = (db: string) => [
    "counterexample",
    "--db",
    db,
    "--reference",
    "SELECT count(*) AS n FROM track WHERE milliseconds > 300000",
    "--candidate",
    "SELECT count(*) AS n FROM track WHERE milliseconds >= 300000",
  ];
  // [name, arguments, the password, exit code, a line the output has, needs the server]
  const runs: [string, () => string[], () => string, number, RegExp, boolean][] = [
    [
      "run, the server unreachable",
      () => ["run", cases, "--predictions", predictions, "--db", unreachable],
      () => MADE_UP,
      2,
      /connection refused/,
      false,
    ],
    [
      "validate, a port out of range",
      () => ["validate", cases, "--db", `postgres://me:${MADE_UP}@localhost:99999/x`],
      () => MADE_UP,
      2,
      /port "99999" is not a port/,
      false,
    ],
    [
      "counterexample, a port out of range",
      () => counterexample(`postgres://me:${MADE_UP}@localhost:99999/x`),
      () => MADE_UP,
      2,
      /port "99999" is not a port/,
      false,
    ],
    [
      "counterexample, text that is not a URL",
      () => counterexample(`postgres://me:${MADE_UP}@local host/x`),
      () => MADE_UP,
      2,
      /not a valid URL/,
      false,
    ],
    [
      "counterexample, the server unreachable",
      () => counterexample(unreachable),
      () => MADE_UP,
      2,
      /connection refused/,
      false,
    ],
    [
      "run, a wrong password",
      () => [
        "run",
        cases,
        "--predictions",
        predictions,
        "--db",
        withPassword(POSTGRES_URL!, MADE_UP),
      ],
      () => MADE_UP,
      2,
      /authentication failed/,
      true,
    ],
    [
      "run, the superuser refused",
      () => ["run", cases, "--predictions", predictions, "--db", POSTGRES_SUPERUSER_URL!],
      () => new URL(POSTGRES_SUPERUSER_URL!).password,
      2,
      /is a superuser/,
      true,
    ],
    [
      "validate, the superuser refused",
      () => ["validate", cases, "--db", POSTGRES_SUPERUSER_URL!],
      () => new URL(POSTGRES_SUPERUSER_URL!).password,
      2,
      /is a superuser/,
      true,
    ],
    [
      "counterexample, the superuser refused",
      () => counterexample(POSTGRES_SUPERUSER_URL!),
      () => new URL(POSTGRES_SUPERUSER_URL!).password,
      2,
      /is a superuser/,
      true,
    ],
    [
      "validate, a reference query that fails",
      () => ["validate", cases, "--db", POSTGRES_URL!],
      () => new URL(POSTGRES_URL!).password,
      2,
      /relation "nope" does not exist/,
      true,
    ],
    [
      "counterexample, a candidate that does not compile",
      () => [...counterexample(POSTGRES_URL!).slice(0, 5), "--candidate", "SELECT * FROM nope"],
      () => new URL(POSTGRES_URL!).password,
      2,
      /relation "nope" does not exist/,
      true,
    ],
    [
      "counterexample, a difference found",
      () => counterexample(POSTGRES_URL!),
      () => new URL(POSTGRES_URL!).password,
      1,
      /^how it differs from postgres:\/\/[^:@]+@/m,
      true,
    ],
    [
      "run with every report and --counterexamples: a failing reference query, a timeout, a near miss",
      () => [
        "run",
        cases,
        "--predictions",
        predictions,
        "--db",
        POSTGRES_URL!,
        "--timeout",
        "1",
        "--counterexamples",
        "--verbose",
        ...reports("reports"),
      ],
      () => new URL(POSTGRES_URL!).password,
      1,
      /relation "nope" does not exist/,
      true,
    ],
  ];
  for (const [name, args, password, code, line, server] of runs) {
    it(`hides it: ${name}`, { skip: server ? NO_SERVER : false, timeout: 120_000 }, () => {
      const r = runCli(args());
      const out = args().includes("--json") ? dir.file("reports") : undefined;
      const all = everything(r.stdout, r.stderr, out);
      assert.equal(r.code, code, all);
      assert.match(all, line);
      assert.ok(password() !== "" && !all.includes(password()), all);
    });
  }
});

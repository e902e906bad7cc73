/**
 * The hostile-SQL matrix on PostgreSQL: every `postgres` statement of
 * table.ts through every path (Spider predictions, BIRD predictions, an
 * agent's SQL-only answers with --counterexamples, reference SQL, `validate
 * --db`, `counterexample`), on PGlite and on the test server as a plain
 * role, each run followed by the canaries; and the server's superuser,
 * refused by every command unless --allow-superuser. Each run must give
 * every hostile case its verdict and message, keep every canary's verdict,
 * end within `--timeout` + 10 s, peak under 1 GB for the whole process tree
 * (PGlite's host included), leave its TMPDIR empty and its inputs as they
 * were, print no stack and no password, and write nothing into the folder a
 * COPY to a file or program names (writable by the server's account).
 * SIGTERM in the middle of a run ends it within 5 s, exit 143.
 *
 * PGlite is one engine, one statement at a time: the runaways run side by
 * side (four cases at once, the default --concurrency), so the first one's
 * deadline is everyone's; the cases in flight with it wait behind it past
 * their own deadline (their reference SQL too: such a case is an ERROR, not
 * a FAIL). The canaries come after, when the runaways' cases have ended:
 * they wait for a new engine (a second or two, more on a loaded machine),
 * outside their own time. validate runs one query at a time there, each
 * runaway to its own deadline.
 *
 * @module
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { snapshotDir, tempDir } from "../fixtures.ts";
import { NO_SERVER, POSTGRES_SUPERUSER_URL, POSTGRES_URL } from "../postgres_server.ts";
import { needs } from "../system_packages.ts";
import { CANARIES, CANARY_ROWS, FIXTURE_SQL, HOSTILE, type PgTarget, TARGETS } from "./table.ts";
import {
  type Finished,
  OVERLOAD,
  readRun,
  type RunCase,
  runWatched as watched,
  said,
  yamlCases,
} from "./_watch.ts";

const PEAK_LIMIT = 1024 * 2 ** 20;
const TIMEOUT_S: Record<PgTarget, number> = { pglite: 3, server: 2 };
/** What a new PGlite may take to start from the fixture's tar file, on a busy machine. */
const PGLITE_START_S = 4;
const HARMLESS = "SELECT count(*) AS n FROM t";
/** The acceptance's bound on a run: --timeout + 10 s (tripled on an overloaded machine). */
const bound = (timeoutS: number) => (timeoutS + 10) * 1000 * OVERLOAD;

/** A run of the CLI, killed at twice its bound (a hang is the failure). */
const runWatched = (
  args: readonly string[],
  cwd: string,
  tmp: string,
  options: { readonly signalAfter?: { readonly file: string; readonly ms: number } } = {},
): Promise<Finished> => {
  const at = args.findIndex((a) => a === "--timeout" || a === "--time-limit");
  const timeoutS = at < 0 ? 30 : Number(args[at + 1]);
  return watched(args, cwd, tmp, { ...options, killAfterMs: bound(timeoutS + 4) * 2 });
};

const dir = tempDir("dbagenteval-hostile-pg-");
after(() => dir.cleanup());
// The server's account must be able to reach the targets folder: the test
// shows that what stops a COPY there is the role, not the folder's mode.
fs.chmodSync(dir.path, 0o755);
const targets = dir.file("targets");
fs.mkdirSync(targets);
fs.chmodSync(targets, 0o777);

/** The server's database for the matrix: made by its superuser, read by the plain role. */
const SERVER_DB = `dbagenteval_hostile_${process.pid}`;
const onServer = (url: string) => {
  const u = new URL(url);
  u.pathname = `/${SERVER_DB}`;
  return u.href;
};

async function superuserSql(database: string, sql: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const u = new URL(POSTGRES_SUPERUSER_URL!);
  u.pathname = `/${database}`;
  const db = postgres(u.href, { max: 1, onnotice: () => {} });
  try {
    await db.unsafe(sql);
  } finally {
    await db.end({ timeout: 5 });
  }
}

if (NO_SERVER === false) {
  before(async () => {
    await superuserSql("postgres", `DROP DATABASE IF EXISTS ${SERVER_DB}`);
    await superuserSql("postgres", `CREATE DATABASE ${SERVER_DB}`);
    await superuserSql(SERVER_DB, FIXTURE_SQL);
  });
  after(() => superuserSql("postgres", `DROP DATABASE IF EXISTS ${SERVER_DB} WITH (FORCE)`));
}

const text = (sql: string) => sql.replaceAll(TARGETS, targets);
const hostile = HOSTILE.flatMap((h) =>
  h.sql.postgres === undefined ? [] : [{ ...h, text: text(h.sql.postgres) }]
);
const canaries = CANARIES.map((c) => ({
  ...c,
  referenceText: c.reference.postgres!,
  agentText: (c.agent ?? c.reference).postgres!,
}));
type Hostile = (typeof hostile)[number];

/** What the given database refuses before a search starts: it is no query (PREPARE, COPY, DO, ...) or it writes. */
function refusedAtOnce(h: Hostile): boolean {
  return !/^\s*(SELECT|WITH)\b/i.test(h.text) || /temp_table/.test(h.id);
}

/** What a statement says on a target: its own there, or the table's. */
function says(h: Hostile, target: PgTarget): RegExp | null {
  const own = h.saysOn?.[target];
  return own === undefined ? h.says : own;
}

/**
 * The statements in the order they run: what ends at once first, the
 * runaways last, side by side (on PGlite they are one engine's, so the
 * ones after the first wait past their deadline and do not run), then the
 * canaries.
 */
const ordered = [...hostile.filter((h) => !h.runaway), ...hostile.filter((h) => h.runaway)];

function workspace(name: string) {
  const root = path.join(dir.path, name);
  for (const sub of ["in/db", "tmp", "out"]) {
    fs.mkdirSync(path.join(root, sub), { recursive: true });
  }
  fs.writeFileSync(path.join(root, "in", "db", "fixture.sql"), FIXTURE_SQL);
  return {
    in: path.join(root, "in"),
    tmp: path.join(root, "tmp"),
    out: path.join(root, "out"),
    input: (file: string, body: string) => fs.writeFileSync(path.join(root, "in", file), body),
  };
}
type Workspace = ReturnType<typeof workspace>;

function assertContained(
  r: Finished,
  w: Workspace,
  before: object,
  timeoutS: number,
  peakLimit = PEAK_LIMIT,
): void {
  assert.ok(r.ms < bound(timeoutS), `the run took ${Math.round(r.ms)} ms\n${r.stderr}`);
  assert.ok(r.peakBytes < peakLimit, `the process tree peaked at ${r.peakBytes} bytes`);
  assert.deepEqual(fs.readdirSync(w.tmp), [], "the run left files in its TMPDIR");
  assert.deepEqual(snapshotDir(w.in), before, "the run changed its inputs");
  assert.deepEqual(fs.readdirSync(targets), [], "a COPY wrote a file or ran a program");
  assert.doesNotMatch(
    r.stderr,
    /\n\s+at |RuntimeError|internal error/,
    `a stack trace:\n${r.stderr}`,
  );
  for (const url of [POSTGRES_URL, POSTGRES_SUPERUSER_URL]) {
    const password = url === undefined ? "" : new URL(url).password;
    if (password !== "") assert.ok(!`${r.stdout}${r.stderr}`.includes(password), "a password");
  }
}

/**
 * What a PGlite statement says when it did not run because the one engine
 * was busy with another case's runaway (or starting again after one) past
 * its own deadline: PGlite's documented limit at --concurrency above 1.
 */
const WAITED =
  /waited for (the one before it|PGlite to start again) (past its own deadline \(\d+ s\)|until its case was over); it did not run/;

function assertCanaries(
  cases: Map<string, RunCase>,
  ids: (id: string) => string,
  target?: PgTarget,
): void {
  for (const c of CANARIES) {
    const got = cases.get(ids(c.id));
    // On PGlite a canary that started while the last runaways still held
    // the engine may not have run, and says so: an ERROR, its reference
    // SQL's or its agent's SQL's (docs/postgres.md). On a server every
    // canary keeps its verdict.
    if (target === "pglite" && got?.verdict === "ERROR" && WAITED.test(said(got))) continue;
    assert.equal(got?.verdict, c.verdict, `canary ${c.id}: ${got === undefined ? "" : said(got)}`);
  }
}

function assertHostile(
  got: Map<string, RunCase>,
  target: PgTarget,
  role: "agent" | "reference",
  id: (h: Hostile, i: number) => string = (h) => h.id,
): void {
  ordered.forEach((h, i) => {
    const c = got.get(id(h, i))!;
    const message = says(h, target);
    const verdict = role === "agent" || message === null ? "FAIL" : "ERROR";
    // On PGlite a runaway's case may have waited behind another's, its reference SQL too.
    const verdicts = target === "pglite" && h.runaway ? [verdict, "ERROR"] : [verdict];
    // PGlite is one engine: any statement may have waited behind a runaway
    // past its own deadline, and not run (said in one line, as here): its
    // case is an ERROR, whoever's SQL it was.
    const waited = target === "pglite" && WAITED.test(said(c));
    if (waited) assert.equal(c.verdict, "ERROR", `${h.id}: ${said(c)}`);
    else assert.ok(verdicts.includes(c.verdict), `${h.id}: ${c.verdict}: ${said(c)}`);
    if (message !== null && !waited) assert.match(said(c), message, `${h.id}: ${said(c)}`);
  });
}

/**
 * PGlite's half costs CI a minute and a half a runtime: it runs under Deno
 * and as the binary, not under `bun cli.ts`, whose runtime and code are the
 * binary's.
 */
const UNDER_BUN_CLI = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined" &&
  !process.env["DBAGENTEVAL_BIN"];

const targetsToRun: [PgTarget, string | false, (w: Workspace) => string][] = [
  [
    "pglite",
    UNDER_BUN_CLI
      ? "PGlite's half runs under Deno and as the binary (the same runtime as Bun's)"
      : false,
    () => "pglite:db/fixture.sql",
  ],
  ["server", NO_SERVER, () => onServer(POSTGRES_URL!)],
];

for (const [target, skip, dbOf] of targetsToRun) {
  const timeout = TIMEOUT_S[target];
  const t = ["--timeout", `${timeout}`];
  describe(`hostile SQL on ${target === "pglite" ? "PGlite" : "a server, as a plain role"}`, {
    concurrency: 1,
    skip,
  }, () => {
    const cases = (role: "agent" | "reference") => [
      ...ordered.map((h) => ({
        id: h.id,
        question: `${h.id}?`,
        sql: role === "agent" ? HARMLESS : h.text,
      })),
      ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
    ];
    const answers = (role: "agent" | "reference") => [
      ...ordered.map((h) => role === "agent" ? h.text : HARMLESS),
      ...canaries.map((c) => c.agentText),
    ];

    it("predictions (Spider lines): each hostile one FAILs, canaries hold", async () => {
      const w = workspace(`${target}-spider`);
      w.input("cases.yaml", yamlCases(cases("agent")));
      w.input("pred.sql", `${answers("agent").join("\n")}\n`);
      const before = snapshotDir(w.in);
      const run = path.join(w.out, "run.json");
      const r = await runWatched(
        ["run", "cases.yaml", "--predictions", "pred.sql", "--db", dbOf(w), ...t, "--json", run],
        w.in,
        w.tmp,
      );
      assert.equal(r.code, 1, r.stderr);
      const got = readRun(run);
      assertHostile(got, target, "agent");
      assertCanaries(got, (id) => id, target);
      assertContained(r, w, before, timeout);
    });

    it("BIRD predictions: each hostile one FAILs, canaries hold", async () => {
      const w = workspace(`${target}-bird`);
      w.input("cases.yaml", yamlCases(cases("agent")));
      w.input(
        "predict_dev.json",
        JSON.stringify(
          Object.fromEntries(
            answers("agent").map((sql, i) => [`${i}`, `${sql}\t----- bird -----\tfixture`]),
          ),
        ),
      );
      const before = snapshotDir(w.in);
      const run = path.join(w.out, "run.json");
      const r = await runWatched(
        [
          "run",
          "cases.yaml",
          "--predictions",
          "predict_dev.json",
          "--db",
          dbOf(w),
          ...t,
          "--json",
          run,
        ],
        w.in,
        w.tmp,
      );
      assert.equal(r.code, 1, r.stderr);
      const got = readRun(run);
      assertHostile(got, target, "agent");
      assertCanaries(got, (id) => id, target);
      assertContained(r, w, before, timeout);
    });

    for (const role of ["agent", "reference"] as const) {
      it(
        role === "agent"
          ? "an agent's SQL-only answers (--agent-cmd, --counterexamples): each hostile one FAILs, canaries hold"
          : "reference SQL: each hostile one is the case's ERROR (FAIL when it gives rows), canaries hold",
        { skip: needs("python3") },
        async () => {
          const w = workspace(`${target}-${role}`);
          const all = cases(role);
          const sql = answers(role);
          w.input("cases.yaml", yamlCases(all));
          const byQuestion = Object.fromEntries(all.map((c, i) => [c.question, sql[i]]));
          w.input(
            "agent.py",
            `import json, sys\nSQL = json.loads(${JSON.stringify(JSON.stringify(byQuestion))})\n` +
              `for line in sys.stdin:\n    r = json.loads(line)\n` +
              `    print(json.dumps({"id": r["id"], "sql": SQL[r["question"]]}), flush=True)\n`,
          );
          const before = snapshotDir(w.in);
          const run = path.join(w.out, "run.json");
          const r = await runWatched(
            [
              "run",
              "cases.yaml",
              "--agent-cmd",
              "python3 agent.py",
              "--db",
              dbOf(w),
              ...t,
              ...(role === "agent" ? ["--counterexamples"] : []),
              "--json",
              run,
            ],
            w.in,
            w.tmp,
          );
          assert.equal(r.code, 1, r.stderr);
          const got = readRun(run);
          assertHostile(got, target, role);
          assertCanaries(got, (id) => id, target);
          assertContained(r, w, before, timeout);
        },
      );
    }

    // On PGlite validate runs one query at a time, each runaway to its own
    // deadline and the next query on a new PGlite: the run's bound is
    // --timeout and a start for each, and 10 s. (A start takes 1.5-3 s on
    // two loaded cores; with --timeout alone for each, the run's 23-28 s
    // there failed the bound of 22 now and then.)
    const validateS = target === "pglite"
      ? (timeout + PGLITE_START_S) * ordered.filter((h) => h.runaway).length
      : timeout;
    it("validate --db: names every hostile reference query that fails, exit 2", async () => {
      const w = workspace(`${target}-validate`);
      w.input("cases.yaml", yamlCases(cases("reference")));
      const before = snapshotDir(w.in);
      const r = await runWatched(["validate", "cases.yaml", "--db", dbOf(w), ...t], w.in, w.tmp);
      assert.equal(r.code, 2, r.stderr);
      for (const h of ordered) {
        const message = says(h, target);
        const line = r.stderr.split("\n").find((l) => l.includes(`case ${h.id}:`));
        if (message === null) continue;
        assert.ok(line !== undefined, `validate names ${h.id}:\n${r.stderr}`);
        assert.match(line, message, `${h.id}: ${line}`);
      }
      for (const c of canaries) assert.doesNotMatch(r.stderr, new RegExp(`case ${c.id}:`));
      assertContained(r, w, before, validateS);
    });

    // A search that reaches its sandbox starts PGlite (seconds): every
    // statement the given database refuses at once (a server's: they are
    // refused before the sandbox), and of those that reach it, a runaway
    // and a program, which stop it.
    const searched = ordered.filter((h) =>
      ["pg_sleep", "pg_do_program"].includes(h.id) || (target === "server" && refusedAtOnce(h))
    );
    for (const h of searched) {
      it(`counterexample --candidate ${h.id}: ends with one clear answer`, async () => {
        const w = workspace(`${target}-cx-${h.id}`);
        const before = snapshotDir(w.in);
        const r = await runWatched(
          [
            "counterexample",
            "--db",
            dbOf(w),
            "--reference",
            HARMLESS,
            "--candidate",
            h.text,
            "--time-limit",
            `${timeout}`,
          ],
          w.in,
          w.tmp,
        );
        // Found (1), or the candidate cannot be searched (2): never "agree" (0).
        assert.ok(r.code === 1 || r.code === 2, `exit ${r.code}: ${r.stdout}${r.stderr}`);
        if (r.code === 2) assert.match(r.stderr, /^error: [^\n]+\n$/, h.id);
        assertContained(r, w, before, timeout + 4, PEAK_LIMIT);
      });
    }

    it("SIGTERM in the middle of a run ends it within 5 s, exit 143", async () => {
      const w = workspace(`${target}-sigterm`);
      w.input("cases.yaml", yamlCases(cases("agent")));
      w.input("pred.sql", `${answers("agent").join("\n")}\n`);
      const run = path.join(w.out, "run.json");
      const stopped = await runWatched(
        [
          "run",
          "cases.yaml",
          "--predictions",
          "pred.sql",
          "--db",
          dbOf(w),
          "--timeout",
          "30",
          "--json",
          run,
        ],
        w.in,
        w.tmp,
        { signalAfter: { file: run, ms: 1000 } },
      );
      assert.equal(stopped.code, 143, stopped.stderr);
      assert.ok(stopped.signalledMsAgo! < 5000, `SIGTERM took ${stopped.signalledMsAgo} ms`);
      assert.deepEqual(fs.readdirSync(w.tmp), []);
    });
  });
}

describe("hostile SQL on a server, as its superuser", { concurrency: 1, skip: NO_SERVER }, () => {
  const superuser = () => onServer(POSTGRES_SUPERUSER_URL!);
  it("is refused by run, validate and counterexample, exit 2, one line", async () => {
    const w = workspace("superuser-refused");
    w.input("cases.yaml", yamlCases([{ id: "c", question: "q", sql: HARMLESS }]));
    w.input("pred.sql", `${HARMLESS}\n`);
    for (
      const args of [
        ["run", "cases.yaml", "--predictions", "pred.sql", "--db", superuser()],
        ["validate", "cases.yaml", "--db", superuser()],
        ["counterexample", "--db", superuser(), "--reference", HARMLESS, "--candidate", HARMLESS],
      ]
    ) {
      const before = snapshotDir(w.in);
      const r = await runWatched(args, w.in, w.tmp);
      assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
      assert.match(
        r.stderr,
        /^error: Refusing PostgreSQL \S+: the user "\S+" is a superuser, .*--allow-superuser to allow it\n$/,
      );
      assertContained(r, w, before, 2);
    }
  });

  it("runs with --allow-superuser, canaries held (what it allows is the SQL's to do)", async () => {
    const w = workspace("superuser-allowed");
    // The statements that touch the server's machine are left out: the flag lets them.
    const kept = ordered.filter((h) =>
      !/copy_file|copy_program|do_program|read_file|lo_import/.test(h.id)
    );
    const all = [
      ...kept.map((h) => ({ id: h.id, question: `${h.id}?`, sql: HARMLESS })),
      ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
    ];
    w.input("cases.yaml", yamlCases(all));
    w.input(
      "pred.sql",
      `${[...kept.map((h) => h.text), ...canaries.map((c) => c.agentText)].join("\n")}\n`,
    );
    const before = snapshotDir(w.in);
    const run = path.join(w.out, "run.json");
    const r = await runWatched(
      [
        "run",
        "cases.yaml",
        "--predictions",
        "pred.sql",
        "--db",
        superuser(),
        "--allow-superuser",
        "--timeout",
        `${TIMEOUT_S.server}`,
        "--json",
        run,
      ],
      w.in,
      w.tmp,
    );
    assert.equal(r.code, 1, r.stderr);
    assertCanaries(readRun(run), (id) => id);
    assertContained(r, w, before, TIMEOUT_S.server);
  });
});

describe("bad URLs and options", { concurrency: 1 }, () => {
  const PASSWORD = "made-up-Pa55word";
  // [what, the --db value, what the one line says]
  const bad: [string, () => string, RegExp][] = [
    ["a port out of range", () => `postgres://me:${PASSWORD}@127.0.0.1:99999/x`, /is not a port/],
    [
      "an sslmode that is none",
      () => `postgres://me:${PASSWORD}@127.0.0.1:1/x?sslmode=bogus`,
      /sslmode "bogus" is not one of/,
    ],
    ["no server there", () => `postgres://me:${PASSWORD}@127.0.0.1:1/x`, /connection refused/],
    ["a PGlite script that does not exist", () => "pglite:db/none.sql", /does not exist/],
  ];
  for (const [what, db, says] of bad) {
    it(`${what}: run, validate and counterexample say so in one line, exit 2`, async () => {
      const w = workspace(`bad-${what.replaceAll(" ", "-")}`);
      w.input("cases.yaml", yamlCases([{ id: "c", question: "q", sql: HARMLESS }]));
      w.input("pred.sql", `${HARMLESS}\n`);
      for (
        const args of [
          ["run", "cases.yaml", "--predictions", "pred.sql", "--db", db(), "--timeout", "2"],
          ["validate", "cases.yaml", "--db", db(), "--timeout", "2"],
          [
            "counterexample",
            "--db",
            db(),
            "--reference",
            HARMLESS,
            "--candidate",
            HARMLESS,
            "--time-limit",
            "2",
          ],
        ]
      ) {
        const before = snapshotDir(w.in);
        const r = await runWatched(args, w.in, w.tmp);
        assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
        assert.match(r.stderr, /^error: [^\n]+\n$/, `${args[0]}: ${r.stderr}`);
        assert.match(r.stderr, says, args[0]);
        assert.ok(!`${r.stdout}${r.stderr}`.includes(PASSWORD), `${args[0]} printed the password`);
        assertContained(r, w, before, 2);
      }
    });
  }

  it("options in a server URL do not lift the deadline or the read-only transaction", {
    skip: NO_SERVER,
  }, async () => {
    const w = workspace("bad-options");
    const u = new URL(onServer(POSTGRES_URL!));
    u.search = "?options=" +
      encodeURIComponent("-cstatement_timeout=0 -cdefault_transaction_read_only=off");
    w.input(
      "cases.yaml",
      yamlCases([
        { id: "sleep", question: "s", sql: "SELECT pg_sleep(60)" },
        { id: "delete", question: "d", sql: "DELETE FROM t" },
        ...canaries.map((c) => ({ id: c.id, question: c.question, sql: c.referenceText })),
      ]),
    );
    const before = snapshotDir(w.in);
    const r = await runWatched(
      ["validate", "cases.yaml", "--db", u.href, "--timeout", "2"],
      w.in,
      w.tmp,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /case sleep: .*statement timeout/);
    assert.match(r.stderr, /case delete: .*read-only transaction/);
    assert.match(r.stderr, /^2 of 6 reference queries failed$/m);
    assertContained(r, w, before, 2);
  });
});

// The canaries' answers are the fixture's, on PostgreSQL too.
describe("the hostile-SQL fixture on PGlite", () => {
  it("gives the canaries' known rows", async () => {
    const { openReferenceDatabase } = await import("../../lib/databases/registry.ts");
    const w = workspace("fixture");
    const db = await openReferenceDatabase(`pglite:${path.join(w.in, "db", "fixture.sql")}`);
    try {
      for (const c of canaries) {
        const rows = [...await db.execute(c.referenceText)].map((r) =>
          Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]))
        );
        assert.deepEqual(rows, CANARY_ROWS[c.id], c.id);
      }
    } finally {
      await db.close();
    }
  });
});

/**
 * `db diff --html` in a real browser: two SQLite files made here from SQL,
 * with every kind of change (rows added, removed and changed, columns added
 * and removed, an index, a trigger and a view changed, tables added and
 * removed, BLOBs, NULL beside '', long text) and hostile strings in names
 * and values (`<script>`, `</td>`, `&amp;`, U+202E, quotes in an attribute),
 * diffed by the CLI and loaded in headless Chromium (tests/_chromium.ts):
 * the test reads the DOM Chromium leaves, not only the file.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { makeDb, tempDir } from "./fixtures.ts";
import { runCli } from "./cli.ts";
import { needs } from "./system_packages.ts";
import { openInChromium } from "./_chromium.ts";

const dir = tempDir("dbagenteval-diffhtml-");
after(() => dir.cleanup());

const HOSTILE_TABLE = 'q" onclick="alert(1)';
const SCRIPT = "<script>document.title='pwned'</script>";
const BREAKOUT = "</td></tr></table><img src=x onerror=alert(1)>";
const LONG = "word ".repeat(400);
/** A SQL string literal. */
const q = (text: string) => `'${text.replaceAll("'", "''")}'`;

const before = `
CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, role TEXT, note TEXT, pic BLOB, legacy TEXT);
INSERT INTO users VALUES
  (1, 'ann', 'user', '', x'00ff', 'l1'),
  (2, 'bob', 'admin', NULL, randomblob(100), NULL),
  (3, ${q(SCRIPT)}, 'user', 'x', NULL, NULL),
  (5, 'eve', 'user', 'short', NULL, NULL);
CREATE INDEX users_role ON users(role);
CREATE TRIGGER users_touch AFTER UPDATE ON users BEGIN SELECT 1; END;
CREATE VIEW admins AS SELECT name FROM users WHERE role = 'admin';
CREATE TABLE logs(id INTEGER PRIMARY KEY, msg TEXT);
INSERT INTO logs VALUES (1, 'gone');
CREATE TABLE events(id INTEGER PRIMARY KEY, what TEXT);
INSERT INTO events VALUES (1, 'e1'), (2, 'e2');
CREATE TABLE same(id INTEGER PRIMARY KEY);
`;
// node:sqlite has no generate_series: a recursive CTE instead.
const seq = (n: number) =>
  `WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < ${n}) SELECT value`;
const afterSql = `
CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, role TEXT, note TEXT, pic BLOB, email TEXT);
INSERT INTO users VALUES
  (1, 'ann', 'admin', NULL, x'00ff', NULL),
  (3, ${q(SCRIPT)}, 'user', 'x', NULL, 'a&amp;b'),
  (4, 'di' || char(8238) || 'lave', ${q(BREAKOUT)}, ${q(LONG)}, zeroblob(70000), NULL),
  (5, 'eve', 'user', ${q(LONG)}, NULL, NULL);
CREATE INDEX users_role ON users(role, name);
CREATE TRIGGER users_touch AFTER UPDATE ON users BEGIN SELECT 2; END;
CREATE VIEW admins AS SELECT name, email FROM users WHERE role = 'admin';
CREATE TABLE "${HOSTILE_TABLE.replaceAll('"', '""')}"(t TEXT);
INSERT INTO "${HOSTILE_TABLE.replaceAll('"', '""')}" VALUES ('x');
CREATE TABLE events(id INTEGER PRIMARY KEY, what TEXT);
INSERT INTO events ${seq(12)}, 'e' || value FROM s;
CREATE TABLE same(id INTEGER PRIMARY KEY);
`;
makeDb(dir.file("before.db"), before);
makeDb(dir.file("after.db"), afterSql);

/** How many times `pattern` (global) occurs in a DOM dump. */
function count(dom: string, pattern: RegExp): number {
  return (dom.match(pattern) ?? []).length;
}

describe("db diff --html in Chromium", { skip: needs("chromium") }, () => {
  const page = dir.file("page.html");
  const r = runCli(["db", "diff", "before.db", "after.db", "--html", page, "--max-rows", "3"], {
    cwd: dir.path,
  });
  // One load serves every check of the page's DOM (Chromium takes a second or two to start).
  let loaded: ReturnType<typeof openInChromium> | undefined;
  const load = () => (loaded ??= openInChromium(page, { profiles: dir.path }));

  it("writes one self-contained page and still prints the text diff", () => {
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /users: changed; rows: 3 changed, 1 added, 1 removed/);
    const text = fs.readFileSync(page, "utf8");
    assert.match(
      text,
      /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/,
    );
    assert.doesNotMatch(text, /<script|<link|https?:\/\//i, "no script, style sheet or address");
  });

  it("runs no script from the data and builds no element from it", () => {
    const { dom, console } = load();
    assert.deepEqual(console, []);
    assert.match(
      dom,
      /<title>Database diff: before\.db → after\.db<\/title>/,
      "the title is the page's",
    );
    assert.equal(count(dom, /<script/g), 0);
    assert.equal(count(dom, /<img/g), 0);
    assert.equal(count(dom, /<[a-z][^<>]*\son(click|error)="/g), 0, "no event handler attribute");
    assert.ok(dom.includes(escapeText(SCRIPT)), "the <script> value is text");
    assert.ok(dom.includes(escapeText(BREAKOUT)), "the </td> value is text");
    assert.ok(dom.includes("a&amp;amp;b"), "&amp; shown as the five characters it is");
  });

  it("shows bidi overrides by name instead of applying them", () => {
    const { dom } = load();
    assert.ok(!dom.includes("\u202e"), "no U+202E in the DOM");
    assert.ok(dom.includes('di<span class="cc">U+202E</span>lave'));
  });

  it("keeps a quote in an attribute inside it", () => {
    const { dom } = load();
    assert.match(dom, /data-table="q&quot; onclick=&quot;alert\(1\)"/);
    assert.ok(dom.includes(escapeText(HOSTILE_TABLE)));
  });

  it("gives each table its status and exact counts, and says how many rows are not shown", () => {
    const { dom } = load();
    const line = (name: string) =>
      new RegExp(`<td><a href="#[^"]+">${name}</a></td><td><span class="st st-(\\w+)">`);
    assert.equal(line("users").exec(dom)?.[1], "changed");
    assert.equal(line("logs").exec(dom)?.[1], "removed");
    assert.equal(line("events").exec(dom)?.[1], "changed");
    assert.match(
      dom,
      /<details class="unchanged"><summary>1 unchanged table<\/summary><p>same<\/p>/,
    );
    assert.match(
      dom,
      /<h4 class="kind-added">Added rows: 10<\/h4>/,
      "the events table's count is exact",
    );
    assert.match(dom, /… and <b>7<\/b> more added rows not on this page/);
    const events =
      /<section class="table"[^>]*data-table="events">.*?<\/section>/s.exec(dom)?.[0] ?? "";
    assert.equal(count(events, /<tr class="added">/g), 3, "--max-rows 3 rows on the page");
    assert.match(dom, /1 database: 3 rows changed, 12 added, 2 removed/);
  });

  it("highlights each changed cell with its old and new value", () => {
    const { dom } = load();
    const users = /<section class="table"[^>]*data-table="users">.*?<\/section>/s.exec(dom)?.[0] ??
      "";
    const cells = [...users.matchAll(/<td class="([^"]*\bchg\b[^"]*)">(.*?)<\/td>/g)];
    // ann: role, note ('' -> NULL), legacy dropped; row 3: email added; eve: note.
    assert.equal(cells.length, 5, cells.map((c) => c[0]).join("\n"));
    assert.ok(users.includes(
      '<td class="chg"><span class="old">user</span><span class="arrow"> → </span><span class="new">admin</span></td>',
    ));
    assert.ok(
      users.includes(
        `<span class="old"><span class="empty" title="empty text">''</span></span><span class="arrow"> → </span><span class="new"><span class="null">NULL</span></span>`,
      ),
      "NULL and '' apart",
    );
    assert.match(
      users,
      /<td class="before-only chg"><span class="old">l1<\/span><span class="arrow"> → <\/span><span class="new"><span class="absent"/,
    );
    assert.match(users, /<th class="after-only"><span class="side">after only<\/span> email<\/th>/);
    assert.match(
      users,
      /<th class="before-only"><span class="side">before only<\/span> legacy<\/th>/,
    );
  });

  it("shows BLOBs by size, hash and first bytes, and folds long text", () => {
    const { dom } = load();
    const hash = createHash("sha256").update(new Uint8Array(70000)).digest("hex").slice(0, 12);
    assert.ok(
      dom.includes(
        `<span class="blob">x'${
          "00".repeat(16)
        }…'</span> <span class="size">70000 bytes, sha256 ${hash}</span>`,
      ),
    );
    assert.match(
      dom,
      /<span class="blob">x'00ff'<\/span> <span class="size">2 bytes<\/span>/,
    );
    assert.match(
      dom,
      /<details class="long"><summary>(word ){12}… <span class="size">2000 characters<\/span><\/summary>/,
    );
  });

  it("lists column, index, trigger and view changes with their old and new SQL", () => {
    const { dom } = load();
    assert.match(dom, /<li class="after-only">\+ column email TEXT<\/li>/);
    assert.match(dom, /<li class="before-only">- column legacy TEXT<\/li>/);
    for (
      const [type, name, sql] of [
        ["index", "users_role", "CREATE INDEX users_role ON users(role, name)"],
        ["trigger", "users_touch", "SELECT 2; END"],
        ["view", "admins", "SELECT name, email FROM users"],
      ] as const
    ) {
      assert.match(
        dom,
        new RegExp(
          `<tr><td>${type}</td><td>${name}</td><td>\\w+</td><td><span class="st st-changed">changed</span></td><td><div class="sql"><div><div class="muted">before</div><pre>[^<]*</pre></div><div><div class="muted">after</div><pre>[^<]*${
            sql.replace(/[()]/g, "\\$&")
          }`,
        ),
      );
    }
    assert.match(dom, /data-table="logs"><h3>logs <span class="st st-removed">removed<\/span>/);
  });

  it("diffs two folders: a section per database, an unreadable file named with its error", () => {
    for (const side of ["a", "b"]) fs.mkdirSync(dir.file(side));
    fs.copyFileSync(dir.file("before.db"), dir.file("a/app.db"));
    fs.copyFileSync(dir.file("after.db"), dir.file("b/app.db"));
    makeDb(dir.file("b/new.db"), "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    fs.writeFileSync(dir.file("b/notes.db"), "not a database");
    const folders = dir.file("folders.html");
    const f = runCli(["db", "diff", "a", "b", "--html", folders], { cwd: dir.path });
    assert.equal(f.code, 2, "an unreadable file makes the answer incomplete");
    const { dom } = openInChromium(folders, { profiles: dir.path });
    assert.equal(count(dom, /<section class="db"/g), 3);
    assert.match(dom, /<h2>app\.db <span class="st st-changed">changed<\/span><\/h2>/);
    assert.match(dom, /<h2>new\.db <span class="st st-added">added<\/span><\/h2>/);
    assert.match(
      dom,
      /<h2>notes\.db <span class="st st-removed">unreadable<\/span><\/h2>.*?<p class="error">Cannot open/s,
    );
    assert.match(dom, /<p>3 databases: /);
  });
});

/** How the DOM dump writes a text node. */
function escapeText(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

describe("db diff --html -", () => {
  it("db diff --html - writes the page on stdout instead of the text", () => {
    const r = runCli(["db", "diff", "before.db", "after.db", "--html", "-"], { cwd: dir.path });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^<!DOCTYPE html>/);
    assert.match(r.stdout, /<\/html>\n$/);
    assert.doesNotMatch(r.stdout, /Row changes:/);
  });

  it("db diff --html - --json - is refused: two outputs on stdout", () => {
    const r = runCli(["db", "diff", "before.db", "after.db", "--html", "-", "--json", "-"], {
      cwd: dir.path,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--json and --html both write to stdout/);
  });
});

// End to end: reference SQL with two columns of the same name, on a real
// SQLite file, against agents that return one or both columns.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { sqliteExecutor } from "../sqlite/executor.ts";
import { defineCase } from "./cases.ts";
import { runCase } from "./evaluate.ts";
import { parseRunFile, toRunFile } from "./run_file.ts";
import { runSuite } from "./suite.ts";

const dir = tempDir();
const file = makeDb(
  dir.file("music.db"),
  `CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name TEXT);
   CREATE TABLE Genre (GenreId INTEGER PRIMARY KEY, Name TEXT);
   CREATE TABLE Track (TrackId INTEGER PRIMARY KEY, ArtistId INTEGER, GenreId INTEGER);
   INSERT INTO Artist VALUES (1, 'AC/DC'), (2, 'Miles Davis');
   INSERT INTO Genre VALUES (1, 'Rock'), (2, 'Jazz');
   INSERT INTO Track VALUES (1, 1, 1), (2, 2, 2);`,
);
const execute = sqliteExecutor(file);
after(() => {
  execute.close();
  dir.cleanup();
});

const REFERENCE =
  "SELECT T2.Name, T3.Name FROM Track AS T1 JOIN Genre AS T2 ON T1.GenreId = T2.GenreId " +
  "JOIN Artist AS T3 ON T1.ArtistId = T3.ArtistId";

describe("reference_rows with two columns of the same name", () => {
  const cases: [string, string, string][] = [
    [
      "fails an agent that returns only the second Name (the false PASS of keyed rows)",
      "SELECT T3.Name FROM Track AS T1 JOIN Artist AS T3 ON T1.ArtistId = T3.ArtistId",
      "FAIL",
    ],
    [
      "fails an agent that returns only the first Name",
      "SELECT T2.Name FROM Track AS T1 JOIN Genre AS T2 ON T1.GenreId = T2.GenreId",
      "FAIL",
    ],
    [
      "passes an agent that returns both Names swapped",
      "SELECT T3.Name, T2.Name FROM Track AS T1 JOIN Genre AS T2 ON T1.GenreId = T2.GenreId JOIN Artist AS T3 ON T1.ArtistId = T3.ArtistId",
      "PASS",
    ],
    ["passes an agent that returns the reference SQL", REFERENCE, "PASS"],
  ];
  for (const [name, agentSql, verdict] of cases) {
    it(`runCase() ${name}`, async () => {
      // The agent answers over the same file, as an agent's own executor would.
      const agent = async () => ({ sql: agentSql, rows: await execute(agentSql) });
      const card = await runCase(
        defineCase({
          id: "names",
          question: "Genre and artist of each track?",
          reference_sql: REFERENCE,
        }),
        agent,
        { execute },
      );
      assert.equal(card.verdict, verdict, JSON.stringify(card.checks));
    });
  }

  it("runCase() fails an agent that returns { columns, rows } with one Name", async () => {
    const agent = () => ({ sql: "...", columns: ["Name"], rows: [["AC/DC"], ["Miles Davis"]] });
    const card = await runCase(
      defineCase({ id: "names", question: "Q", reference_sql: REFERENCE }),
      agent,
      { execute },
    );
    assert.equal(card.verdict, "FAIL");
    const detail = card.checks.find((c) => c.name === "reference_rows")?.detail;
    assert.equal(
      detail,
      'got 2 row(s), first: [{"Name":"AC/DC"}]; the reference query gives 2 row(s), first: [{"Name":"Rock","Name (2)":"AC/DC"}]',
    );
  });
});

describe("the run file with two columns of the same name", () => {
  it("toRunFile() keeps rows as objects keyed Name, Name (2) and stores the true column lists", async () => {
    const agent = async () => ({ sql: REFERENCE, rows: await execute(REFERENCE) });
    const testCase = defineCase({ id: "names", question: "Q", reference_sql: REFERENCE });
    const run = toRunFile(await runSuite([testCase], agent, { execute }));
    const c = run.cases[0]!;
    assert.deepEqual(c.reference_rows?.[0], { Name: "Rock", "Name (2)": "AC/DC" });
    assert.deepEqual(c.reference_columns, ["Name", "Name"]);
    const stage = c.trace?.find((s) => s.kind === "execute");
    assert.deepEqual(stage?.columns, ["Name", "Name"]);
    // ...and a reader of the file accepts them.
    assert.equal(parseRunFile(JSON.stringify(run), "run.json").cases[0]?.verdict, "PASS");
  });
});

describe("reference_rows with a column repeated under another name", () => {
  it("runCase() passes SELECT ArtistId, ArtistId for SELECT ArtistId, ArtistId AS b", async () => {
    const agentSql = "SELECT ArtistId, ArtistId FROM Artist";
    const agent = async () => ({ sql: agentSql, rows: await execute(agentSql) });
    const card = await runCase(
      defineCase({
        id: "twice",
        question: "Q",
        reference_sql: "SELECT ArtistId, ArtistId AS b FROM Artist",
      }),
      agent,
      { execute },
    );
    assert.equal(card.verdict, "PASS", JSON.stringify(card.checks));
  });
});

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeDb, tempDir } from "../../tests/fixtures.ts";
import { openMemoryDatabase } from "../sqlite/database.ts";
import { compareRows } from "../compare/rows.ts";
import { findCounterexample } from "./search.ts";

const dir = tempDir();
after(() => dir.cleanup());

// A university schema with no rows (VeriEQL's Literature set has no data
// either): whatever is found is built from the queries alone.
const UNIVERSITY = `
CREATE TABLE COURSE (COURSE_ID INT, TITLE INT, DEPT_NAME INT, CREDITS INT);
CREATE TABLE DEPARTMENT (DEPT_NAME INT, BUILDING INT, BUDGET INT);
CREATE TABLE INSTRUCTOR (ID INT, NAME INT, SALARY INT, DEPT_NAME INT);
CREATE TABLE TEACHES (ID INT, COURSE_ID INT, SEC_ID INT, YEAR INT, SEMESTER INT);
CREATE TABLE SECTION (COURSE_ID INT, SEC_ID INT, YEAR INT, BUILDING INT, ROOM_NUMBER INT, TIME_SLOT_ID INT);
CREATE TABLE TAKES (ID INT, COURSE_ID INT, SEC_ID INT, YEAR INT, GRADE INT);
CREATE TABLE STUDENT (ID INT, NAME INT, DEPT_NAME INT, TOT_CRED INT);
CREATE TABLE PARTS (PNUM INT, QOH INT);
CREATE TABLE SUPPLY (PNUM INT, SHIPDATE INT);
CREATE TABLE ev (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, at DATE);
`;
const empty = makeDb(dir.file("university.db"), UNIVERSITY);

const FIVE = "COURSE NATURAL JOIN DEPARTMENT NATURAL JOIN STUDENT NATURAL JOIN TAKES " +
  "NATURAL JOIN SECTION";

// [what it takes, reference, candidate, the strategy expected to find it]
const cases: [string, string, string][] = [
  [
    "a group of exactly 28 rows (HAVING COUNT(*) > 28 against >= 28)",
    "SELECT DEPT_NAME FROM COURSE GROUP BY DEPT_NAME HAVING COUNT(*) > 28",
    "SELECT DEPT_NAME FROM COURSE GROUP BY DEPT_NAME HAVING COUNT(*) >= 28",
  ],
  [
    "values summing to exactly 100 under a maximum of 75",
    "SELECT DEPT_NAME, SUM(SALARY) FROM INSTRUCTOR GROUP BY DEPT_NAME HAVING SUM(SALARY) > 100 AND MAX(SALARY) < 75",
    "SELECT DEPT_NAME, SUM(SALARY) FROM INSTRUCTOR GROUP BY DEPT_NAME HAVING SUM(SALARY) >= 100 AND MAX(SALARY) < 75",
  ],
  [
    "6 to 8 distinct values under one key",
    "SELECT C.DEPT_NAME, SUM(C.CREDITS) FROM COURSE C INNER JOIN DEPARTMENT D ON (C.DEPT_NAME = D.DEPT_NAME) GROUP BY C.DEPT_NAME HAVING SUM(C.CREDITS) > 10 AND COUNT(DISTINCT C.CREDITS) > 5",
    "SELECT C.DEPT_NAME, SUM(C.CREDITS) FROM COURSE C INNER JOIN DEPARTMENT D ON (C.DEPT_NAME = D.DEPT_NAME) GROUP BY C.DEPT_NAME HAVING SUM(C.CREDITS) > 10 AND COUNT(DISTINCT C.CREDITS) > 8",
  ],
  [
    "11 rows for a LIMIT 10",
    "SELECT COURSE_ID FROM COURSE ORDER BY COURSE_ID LIMIT 10",
    "SELECT COURSE_ID FROM COURSE ORDER BY COURSE_ID",
  ],
  [
    "rows that satisfy a NATURAL JOIN of five tables, a student in two departments",
    `SELECT ID FROM ${FIVE} GROUP BY ID, DEPT_NAME HAVING COUNT(DEPT_NAME) >= 2`,
    `SELECT ID FROM ${FIVE} GROUP BY ID HAVING COUNT(DEPT_NAME) >= 2`,
  ],
  [
    "a join on an expression (BUDGET = YEAR + 4) and a count of 3 where 2 is compared",
    "SELECT T.SEMESTER, SUM(C.CREDITS) FROM DEPARTMENT D INNER JOIN TEACHES T ON (D.BUDGET = T.YEAR + 4) INNER JOIN COURSE C ON (C.DEPT_NAME = D.DEPT_NAME) GROUP BY T.SEMESTER HAVING AVG(C.CREDITS) > 2 AND COUNT(D.BUILDING) = 2",
    "SELECT T.SEMESTER, SUM(C.CREDITS) FROM DEPARTMENT D INNER JOIN TEACHES T ON (D.BUDGET = T.YEAR + 4) INNER JOIN COURSE C ON (C.DEPT_NAME = D.DEPT_NAME) GROUP BY T.SEMESTER HAVING AVG(C.CREDITS) > 2 AND COUNT(D.BUILDING) >= 2",
  ],
  [
    "a 1 where no constant is near 1 (the count bug)",
    "SELECT X.PNUM AS XP FROM PARTS X WHERE (X.PNUM, X.QOH) IN (SELECT Y.PNUM, COUNT(Y.SHIPDATE) AS CNT FROM SUPPLY Y WHERE Y.SHIPDATE < 10)",
    "SELECT X.PNUM AS XP FROM PARTS X, (SELECT Y.PNUM AS SUPPNUM, COUNT(Y.SHIPDATE) AS CT FROM SUPPLY Y WHERE Y.SHIPDATE < 10 GROUP BY Y.PNUM) TEMP WHERE X.QOH = TEMP.CT AND X.PNUM = TEMP.SUPPNUM",
  ],
  [
    "a date in a DATE column that has no rows to show its format",
    "SELECT count(*) AS n FROM ev WHERE at >= '2024-03-01'",
    "SELECT count(*) AS n FROM ev WHERE at > '2024-03-01'",
  ],
];

async function differsIn(script: string, reference: string, candidate: string): Promise<boolean> {
  const fresh = await openMemoryDatabase();
  try {
    fresh.exec(script);
    assert.deepEqual(fresh.query("PRAGMA foreign_key_check"), []);
    return !compareRows(fresh.query(candidate), fresh.query(reference));
  } finally {
    fresh.close();
  }
}

describe("findCounterexample() on a database with no rows", () => {
  for (const [name, reference, candidate] of cases) {
    it(`finds ${name}`, async () => {
      const r = await findCounterexample({ db: empty, reference, candidate });
      assert.equal(r.found, true, JSON.stringify(r));
      assert.equal(await differsIn(r.databaseSql!, reference, candidate), true, r.databaseSql);
      // Strategies that take the given rows have none to take.
      assert.ok(
        !["real_subset", "mutated_subset", "real_sample"].includes(r.strategy!),
        r.strategy,
      );
    });
  }

  it("finds no difference between a query and its equivalent rewrite", async () => {
    const r = await findCounterexample({
      db: empty,
      reference: `SELECT ID FROM ${FIVE} GROUP BY ID, DEPT_NAME HAVING COUNT(DEPT_NAME) > 1`,
      candidate: `SELECT ID FROM ${FIVE} GROUP BY ID, DEPT_NAME HAVING COUNT(DEPT_NAME) >= 2`,
    });
    assert.equal(r.found, false);
  });
});

describe("findCounterexample() tries the given database first", () => {
  it("as it is, duplicate rows kept", async () => {
    const db = makeDb(
      dir.file("twice.db"),
      "CREATE TABLE t (a INTEGER, b INTEGER); INSERT INTO t VALUES (0, 50), (0, 50);",
    );
    const reference = "SELECT a, b FROM t";
    const candidate = "SELECT DISTINCT a, b FROM t";
    const r = await findCounterexample({ db, reference, candidate, budget: 2 });
    assert.equal(r.found, true, JSON.stringify(r));
    assert.equal(r.strategy, "given");
    assert.equal(r.tried, 1);
    assert.equal(await differsIn(r.databaseSql!, reference, candidate), true);
  });
});

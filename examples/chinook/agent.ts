/**
 * A realistic text-to-SQL agent on the Chinook music-store database, for a
 * support rep, Jane Peacock (employee 3), who may only see her own customers
 * (`Customer.SupportRepId = 3`). A lookup table stands in for the LLM that
 * writes the SQL; the SQL runs read-only on the example database.
 *
 * Some of its answers are wrong, in the ways dbagenteval finds:
 * - wrong rows: an `AND ... OR ...` without brackets (canada-or-usa; with
 *   --rules, tenant_filter finds it first, at generate: the `OR` branch has
 *   no SupportRepId filter);
 * - a number in the answer that is not in the rows (average-track-minutes,
 *   with --rules);
 * - an error while running the SQL (most-expensive-track);
 * - unsafe SQL: it reads the staff table, with birth dates and home
 *   addresses (customers-in-my-country, with --rules);
 * - a correct number from a bad query: no SupportRepId filter, right today
 *   only because every customer in India is Jane's (customers-in-india,
 *   with --rules; with --counterexamples, a FAIL at generate that shows a
 *   database where it is wrong: a customer in India who is not Jane's);
 * - an answer-only reply with a number the reference result does not have
 *   (media-types).
 *
 * It imports nothing from dbagenteval: it returns plain objects, so the
 * downloaded binary can test it with no package installed.
 *
 *     deno task demo
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

const DATABASE = fileURLToPath(new URL("./Chinook_Sqlite.sqlite", import.meta.url));

type Rows = Record<string, unknown>[];

/** What the pretend LLM produces for a question: SQL and an answer from its rows, or only text. */
type Reply =
  | { readonly view: string; readonly sql: string; readonly answer: (rows: Rows) => string }
  | { readonly text: string };

const REPLIES: Record<string, Reply> = {
  "How many genres are there?": {
    view: "Genre",
    sql: "SELECT COUNT(*) AS genres FROM Genre",
    answer: (rows) => `There are ${rows[0]?.["genres"]} genres.`,
  },
  "Which three genres have the most tracks?": {
    view: "Track",
    sql: "SELECT g.Name AS genre, COUNT(*) AS tracks FROM Track t " +
      "JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY tracks DESC LIMIT 3",
    answer: (rows) => rows.map((r) => `${r["genre"]} (${r["tracks"]} tracks)`).join(", "),
  },
  "What is the longest track?": {
    view: "Track",
    sql: "SELECT Name, Milliseconds FROM Track ORDER BY Milliseconds DESC LIMIT 1",
    answer: (rows) => `${rows[0]?.["Name"]}, ${rows[0]?.["Milliseconds"]} ms.`,
  },
  "What is the average track length in minutes?": {
    view: "Track",
    sql: "SELECT ROUND(AVG(Milliseconds) / 60000.0, 2) AS minutes FROM Track",
    // 3503 is the number of tracks: true, but not in the rows.
    answer: (rows) => `The average track lasts ${rows[0]?.["minutes"]} minutes, over 3503 tracks.`,
  },
  "Which artist has the most albums?": {
    view: "Album",
    sql: "SELECT ar.Name AS artist, COUNT(*) AS albums FROM Album al " +
      "JOIN Artist ar ON ar.ArtistId = al.ArtistId GROUP BY ar.Name ORDER BY albums DESC LIMIT 1",
    answer: (rows) => `${rows[0]?.["artist"]}, with ${rows[0]?.["albums"]} albums.`,
  },
  "What is the most expensive track price?": {
    view: "Track",
    sql: "SELECT MAX(Price) AS price FROM Track", // no such column
    answer: (rows) => `${rows[0]?.["price"]}`,
  },
  "How many customers do I look after?": {
    view: "Customer",
    sql: "SELECT COUNT(*) AS customers FROM Customer WHERE SupportRepId = 3",
    answer: (rows) => `You look after ${rows[0]?.["customers"]} customers.`,
  },
  "How many of my customers live in Canada or the USA?": {
    view: "Customer",
    // Missing brackets: every customer in the USA is counted, not only Jane's.
    sql: "SELECT COUNT(*) AS customers FROM Customer " +
      "WHERE SupportRepId = 3 AND Country = 'Canada' OR Country = 'USA'",
    answer: (rows) => `${rows[0]?.["customers"]} of your customers live in Canada or the USA.`,
  },
  "How many of my customers live in India?": {
    view: "Customer",
    // No SupportRepId filter: right today, wrong when a colleague gets a customer in India.
    sql: "SELECT COUNT(*) AS customers FROM Customer WHERE Country = 'India'",
    answer: (rows) => `${rows[0]?.["customers"]} of your customers live in India.`,
  },
  "How many of my customers live in my country?": {
    view: "Customer",
    // Reads the staff table to find Jane's country: a table it must not read.
    sql: "SELECT COUNT(*) AS customers FROM Customer c " +
      "JOIN Employee e ON e.EmployeeId = c.SupportRepId " +
      "WHERE c.SupportRepId = 3 AND c.Country = e.Country",
    answer: (rows) => `${rows[0]?.["customers"]} of your customers live in your country.`,
  },
  "What did my customers spend in 2024?": {
    view: "Invoice",
    sql: "SELECT ROUND(SUM(i.Total), 2) AS total FROM Invoice i " +
      "JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.SupportRepId = 3 " +
      "AND i.InvoiceDate >= '2024-01-01' AND i.InvoiceDate < '2025-01-01'",
    answer: (rows) => `Your customers spent ${rows[0]?.["total"]} in 2024.`,
  },
  "Who are my three best customers by total spent?": {
    view: "Invoice",
    sql: "SELECT c.FirstName || ' ' || c.LastName AS customer, ROUND(SUM(i.Total), 2) AS spent " +
      "FROM Invoice i JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.SupportRepId = 3 " +
      "GROUP BY c.CustomerId ORDER BY spent DESC LIMIT 3",
    answer: (rows) => rows.map((r) => `${r["customer"]} (${r["spent"]})`).join(", "),
  },
  "How many playlists are there?": { text: "There are 18 playlists." },
  // Only text, and a number that is not the reference value.
  "How many media types are there?": { text: "There are 5 media types, 2 of them protected." },
};

let db: DatabaseSync | undefined;

/**
 * Runs the agent's SQL read-only on the example database.
 *
 * @param sql the query
 * @returns the rows as plain objects
 */
export function runSql(sql: string): Rows {
  db ??= new DatabaseSync(DATABASE, { readOnly: true });
  return db.prepare(sql).all().map((row) => ({ ...row }));
}

/**
 * The agent: answers a question about the Chinook store and records each step.
 *
 * @param question the user's question
 * @returns a trace as a plain object: the question and its stages
 */
export function agent(question: string): { question: string; stages: object[] } {
  const reply = REPLIES[question];
  if (reply === undefined) {
    return { question, stages: [{ kind: "answer", output: "Sorry, I cannot answer that." }] };
  }
  if ("text" in reply) return { question, stages: [{ kind: "answer", output: reply.text }] };
  const stages: object[] = [
    { kind: "route", name: "view", output: reply.view },
    { kind: "generate", output: reply.sql },
  ];
  try {
    const rows = runSql(reply.sql);
    stages.push({ kind: "execute", rows }, { kind: "answer", output: reply.answer(rows) });
  } catch (error) {
    stages.push({ kind: "execute", error: error instanceof Error ? error.message : String(error) });
  }
  return { question, stages };
}

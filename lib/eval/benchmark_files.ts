/**
 * The public text-to-SQL benchmarks' own question files, read as cases:
 * Spider's `dev.json` (`db_id`, `question`, `query`), BIRD's `dev.json`
 * (`question_id`, `db_id`, `question`, `evidence`, `SQL`, `difficulty`) and
 * Spider's gold file (`dev_gold.sql`: `SQL<TAB>db_id` a line). A case gets
 * the benchmark's database as `db`, BIRD's evidence as `evidence`, and its
 * position in the file as its id (BIRD: its `question_id`).
 *
 * @module
 */
import * as v from "valibot";
import type { CaseInput } from "./cases.ts";

/** Which benchmark a file is written for. */
export type BenchmarkFormat = "spider" | "bird";

/** A mistake in one item: its index, the path inside it, the message. */
export interface BenchmarkProblem {
  readonly index: number;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

const text = (field: string) =>
  v.pipe(
    v.string(`${field} must be text`),
    v.check((s) => s.trim() !== "", `${field} must not be empty`),
  );

const SpiderItem = v.looseObject({
  db_id: text("db_id"),
  question: text("question"),
  query: text("query"),
});

const BirdItem = v.looseObject({
  question_id: v.union([v.number(), v.string()], "question_id must be a number"),
  db_id: text("db_id"),
  question: text("question"),
  evidence: v.optional(v.nullable(v.string("evidence must be text"))),
  SQL: text("SQL"),
  difficulty: v.optional(v.nullable(v.string("difficulty must be text"))),
});

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The benchmark a JSON list is written for, from its first item: `db_id`
 * with `SQL` (BIRD) or with `query` (Spider); undefined for a cases list.
 *
 * @param items the parsed JSON list
 * @returns the format, or undefined
 * @example
 * ```ts
 * import { benchmarkFormat } from "./benchmark_files.ts";
 * benchmarkFormat([{ db_id: "concert_singer", question: "How many singers?", query: "SELECT count(*) FROM singer" }]); // "spider"
 * benchmarkFormat([{ question: "How many?" }]); // undefined
 * ```
 */
export function benchmarkFormat(items: readonly unknown[]): BenchmarkFormat | undefined {
  const first = items[0];
  if (!isObject(first) || !("db_id" in first) || "reference_sql" in first) return undefined;
  if ("SQL" in first || "question_id" in first || "evidence" in first) return "bird";
  if ("query" in first) return "spider";
  return undefined;
}

/**
 * Turns a benchmark's items into cases.
 *
 * @param items the parsed JSON list
 * @param format which benchmark
 * @returns the cases' fields, in order
 * @throws {BenchmarkProblem} (thrown as a value) at the first item that does not fit
 * @example
 * ```ts
 * import { benchmarkCases } from "./benchmark_files.ts";
 * const [c] = benchmarkCases([{
 *   question_id: 0, db_id: "california_schools", question: "Which school?",
 *   evidence: "Eligible free rate = `Free Meal Count` / `Enrollment`", SQL: "SELECT 1", difficulty: "simple",
 * }], "bird");
 * c?.id; // "0"
 * c?.db; // "california_schools"
 * ```
 */
export function benchmarkCases(items: readonly unknown[], format: BenchmarkFormat): CaseInput[] {
  const schema = format === "bird" ? BirdItem : SpiderItem;
  return items.map((raw, index): CaseInput => {
    const parsed = v.safeParse(schema, raw);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const problem: BenchmarkProblem = {
        index,
        path: (issue.path ?? []).map((p) => p.key as string | number),
        message: isObject(raw)
          ? issue.message
          : `each item must be an object with db_id, question and ${
            format === "bird" ? "SQL" : "query"
          }`,
      };
      throw problem;
    }
    if (format === "bird") {
      const o = parsed.output as v.InferOutput<typeof BirdItem>;
      const evidence = o.evidence?.trim() ?? "";
      return {
        id: String(o.question_id),
        question: o.question,
        reference_sql: o.SQL,
        db: o.db_id,
        ...(evidence !== "" ? { evidence } : {}),
        tags: [o.db_id, ...(o.difficulty ? [o.difficulty] : [])],
      };
    }
    const o = parsed.output as v.InferOutput<typeof SpiderItem>;
    return {
      id: String(index),
      question: o.question,
      reference_sql: o.query,
      db: o.db_id,
      tags: [o.db_id],
    };
  });
}

/**
 * Reads Spider's gold file (`dev_gold.sql`): one question a line,
 * `SQL<TAB>db_id`; blank lines are skipped, as the official evaluator skips
 * them. The file has no question text, so each case's question says where
 * it comes from.
 *
 * @param text the file's content
 * @param fileName the file's name, for the questions
 * @returns the cases' fields and the line of each
 * @throws {BenchmarkProblem} (thrown as a value; `index` is the 0-based line) at a line without a TAB
 * @example
 * ```ts
 * import { goldCases } from "./benchmark_files.ts";
 * const { cases } = goldCases("SELECT count(*) FROM singer\tconcert_singer\n", "dev_gold.sql");
 * cases[0]?.db; // "concert_singer"
 * ```
 */
export function goldCases(
  text: string,
  fileName: string,
): { cases: CaseInput[]; lines: number[] } {
  const cases: CaseInput[] = [];
  const lines: number[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const tab = line.lastIndexOf("\t");
    const sql = tab < 0 ? "" : line.slice(0, tab).trim();
    const db = tab < 0 ? "" : line.slice(tab + 1).trim();
    if (sql === "" || db === "") {
      throw {
        index: i,
        path: [],
        message: "expected SQL<TAB>db_id, as Spider's dev_gold.sql writes each line",
      } satisfies BenchmarkProblem;
    }
    const n = cases.length;
    cases.push({
      id: String(n),
      question: `question ${n} of ${fileName} (the file has no question text)`,
      reference_sql: sql,
      db,
      tags: [db],
    });
    lines.push(i + 1);
  });
  return { cases, lines };
}

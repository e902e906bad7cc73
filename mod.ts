/**
 * dbagenteval: diff SQLite databases, assert on the diff with a selector
 * language, and test text-to-SQL agents. For Deno 2 and Bun.
 *
 * @example
 * ```ts
 * import { databaseInfo } from "./mod.ts";
 * const info = await databaseInfo("examples/chinook/Chinook_Sqlite.sqlite");
 * info.tables.length; // 11
 * ```
 *
 * @module
 */

// Errors
export {
  CannotTellError,
  CasesFileError,
  DiffKeyError,
  SelectorError,
  SqliteDamageError,
  SqliteOpenError,
  type SqliteOpenReason,
  SqliteQueryError,
  TraceError,
  UsageError,
} from "./lib/errors.ts";
export { AgentError, NotRunError } from "./lib/errors.ts";
export { VERSION } from "./lib/version.ts";

// SQLite engine (lib/sqlite)
export {
  Database,
  openDatabase,
  openMemoryDatabase,
  type SqlDialectOptions,
} from "./lib/sqlite/database.ts";
export { type SqliteParams, Statement } from "./lib/sqlite/statement.ts";
export {
  type Executor,
  type SqliteExecutor,
  sqliteExecutor,
  type SqliteRows,
} from "./lib/sqlite/executor.ts";
export {
  type KeyedRows,
  type ResultRows,
  resultRows,
  rowKeys,
  rowObjects,
  type RowSet,
  toRowSet,
} from "./lib/row_set.ts";
export { type OpenDatabaseOptions, type ReferenceDatabase } from "./lib/databases/database.ts";
export {
  DATABASE_KINDS,
  type DatabaseKind,
  openReferenceDatabase,
} from "./lib/databases/registry.ts";
export { type DatabaseInfo, databaseInfo, type TableInfo } from "./lib/sqlite_format/info.ts";
export {
  compareValues,
  emptyRow,
  sameValue,
  type SqliteRow,
  type SqliteValue,
} from "./lib/sqlite/value.ts";
export { decodeSqliteText, encodeSqliteText, hasEscapedBytes } from "./lib/sqlite/text.ts";

// Counterexample search (lib/counterexample)
export {
  type Counterexample,
  type CounterexampleOptions,
  DEFAULT_BUDGET,
  DEFAULT_TIME_LIMIT,
  findCounterexample,
} from "./lib/counterexample/search.ts";

// Database diffs (lib/diff)
export {
  type AddedRow,
  type ChangedRow,
  type ChangeStatus,
  type ColumnAspect,
  type ColumnChange,
  type ColumnInfo,
  type DatabaseChange,
  type DatabaseDiff,
  DIFF_FORMAT_VERSION,
  type DiffOfDiffs,
  type DiffSettings,
  type KeyKind,
  type RemovedRow,
  type RowCounts,
  type SchemaObjectChange,
  type SkippedTable,
  type TableDiff,
} from "./lib/diff/types.ts";
export { diffSqliteDatabases, streamSqliteDiff } from "./lib/diff/diff_sqlite.ts";
export { type DumpSink, dumpSqlite } from "./lib/diff/dump.ts";
export type { DiffListener } from "./lib/diff/listener.ts";
export { foldName } from "./lib/diff/names.ts";
export {
  type DatabaseSchema,
  readDatabaseSchema,
  type TableSchemaInfo,
} from "./lib/diff/schema_info.ts";
export { SqlRenderer } from "./lib/diff/render_sql.ts";
export { ChangesetRenderer } from "./lib/diff/render_changeset.ts";
export { type HtmlDiffOptions, HtmlRenderer, renderDiffHtml } from "./lib/diff/render_html.ts";
export { diffChanged, renderDiffSummary } from "./lib/diff/render_summary.ts";
export {
  type DatabaseSource,
  DEFAULT_DB_PATTERNS,
  diffFilesystemDatabases,
  type FilesystemDiffOptions,
} from "./lib/diff/diff_filesystem.ts";
export { diffDatabaseDiffs } from "./lib/diff/diff_of_diffs.ts";
export { diffFromJson, diffToJson } from "./lib/diff/json.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, type DiffOptions } from "./lib/diff/options.ts";
export { renderDiffText, type RenderOptions } from "./lib/diff/render_text.ts";

// Selectors (selector/)
export {
  type ChangedColumnsCondition,
  type ChangedRowsMatch,
  type ColumnCondition,
  type CountCondition,
  type DatabasesScope,
  explainMatch,
  matchesDiff,
  type MatchExplanation,
  type NameMatch,
  type OperatorName,
  type OperatorObject,
  parseSelector,
  readSelector,
  type RowsMatch,
  type RowsScope,
  type RowTemplate,
  type Scalar,
  type Selector,
  type SelectorWatch,
  type SetMatch,
  type StatusMatch,
  type TablesScope,
  type TableStatus,
  type Target,
  watchSelector,
  type Where,
  type WhereObject,
} from "./selector/mod.ts";

// Leaderboard scores (lib/compare)
export {
  BIRD_EX,
  BIRD_F1,
  BIRD_VES,
  birdSetEqual,
  cleanAbnormal,
  type Disagreement,
  explainDisagreement,
  type LeaderboardScore,
  leaderboardScores,
  leaderboardText,
  type OurComparison,
  rewardFromRatios,
  rves,
  type Score,
  scoreBirdEx,
  scoreBirdF1,
  scoreBirdVes,
  type ScoreInput,
  type ScoreName,
  type ScoreOutcome,
  SCORES,
  scoresNamed,
  scoreSpider,
  softF1,
  SPIDER,
  type SpiderOptions,
  type SpiderQueries,
  spiderQueries,
  type SpiderScore,
  spiderScore,
  type StoredExecutor,
  storedExecutor,
  type StoredRows,
  type StoredValue,
  type TestSuiteDatabase,
  type VesOptions,
  vesReward,
} from "./lib/compare/mod.ts";

// Agent tests (lib/eval)
export {
  Check,
  type CheckContext,
  type CheckResult,
  type CounterexampleFinding,
  ERROR,
  FAIL,
  type Judge,
  PASS,
  SKIP,
  type Status,
} from "./lib/eval/check.ts";
export type { Expect, TestCase } from "./lib/eval/case.ts";
export { COUNTEREXAMPLE_CHECK_SOURCE, CounterexampleCheck } from "./lib/counterexample/check.ts";
export { type CheckSource, type CounterexampleSettings } from "./lib/eval/check_sources.ts";
export {
  checkQuestion,
  DEFAULT_CHECK_SOURCES,
  evaluate,
  runCase,
  runLoop,
  runRepeated,
  runSuite,
} from "./lib/run/check_sources.ts";
export {
  type Row,
  type SimpleTraceInput,
  type Stage,
  STAGE_KINDS,
  type StageInput,
  type StageKind,
  Trace,
} from "./lib/eval/trace.ts";
export { type Agent, type AgentContext, checkRows, readRows, toTrace } from "./lib/eval/agent.ts";
export { type ClosableAgent } from "./lib/agents/types.ts";
export { commandAgent, type CommandAgentOptions } from "./lib/agents/command_agent.ts";
export { httpAgent, type HttpAgentOptions } from "./lib/agents/http_agent.ts";
export {
  parsePredictions,
  type PredictionsAgent,
  predictionsAgent,
} from "./lib/eval/predictions.ts";
export { DatabaseDir } from "./lib/databases/db_dir.ts";
export { AGENT_HEADERS_ENV, parseHeaders } from "./lib/agents/headers.ts";
export {
  acceptableResults,
  type CaseInput,
  caseLine,
  defineCase,
  loadCases,
  parseCases,
} from "./lib/eval/cases.ts";
export { CASE_FIELDS } from "./lib/eval/case_schema.ts";
export {
  isNumericText,
  normalizeNumber,
  numbersInText,
  type TextNumber,
  textNumberValues,
} from "./lib/compare/normalize.ts";
export {
  type ComparableRows,
  compareRows,
  type CompareRowsOptions,
  matchesAny,
} from "./lib/compare/rows.ts";
export { Scorecard, type ScorecardInput, verdictOf } from "./lib/eval/scorecard.ts";
export {
  type CaseSession,
  type CaseSetup,
  type CheckLike,
  type CheckQuestionOptions,
  type EvaluateOptions,
  type RunCaseOptions,
} from "./lib/eval/evaluate.ts";
export {
  type CaseResult,
  type SuiteOptions,
  SuiteResult,
  type SuiteTotals,
} from "./lib/eval/suite.ts";
export {
  parseRunFile,
  readRunFile,
  RUN_FILE_MAX_ROWS,
  RUN_FORMAT,
  RUN_FORMAT_VERSION,
  type RunFile,
  type RunFileAttempt,
  type RunFileCase,
  type RunFileCheck,
  type RunFileShard,
  type RunFileStage,
  toRunFile,
} from "./lib/eval/run_file.ts";
export { runFileJson } from "./lib/eval/run_file_json.ts";
export { diffRuns, type RunChange, RunDiff, type RunEntry } from "./lib/eval/run_diff.ts";
export { markdownReport } from "./lib/eval/report_md.ts";
export type { ReportTarget, ReportWriter } from "./lib/eval/report.ts";
export {
  REPORT_OPTIONS,
  REPORT_WRITERS,
  type ReportKey,
  reportWanted,
} from "./lib/eval/reports.ts";
export { junitReport } from "./lib/eval/report_junit.ts";
export { htmlReport } from "./lib/eval/report_html.ts";
export {
  GITHUB_MAX_ANNOTATIONS,
  GITHUB_SUMMARY_LIMIT,
  type GithubAnnotationOptions,
  githubAnnotations,
  githubSummary,
} from "./lib/eval/report_github.ts";
export { formatSeconds, verboseReport, type VerboseReportOptions } from "./lib/eval/report_text.ts";
export { passAtK, passHatK } from "./lib/eval/pass_at_k.ts";
export { type CaseSelection, idMatches, selectCases } from "./lib/eval/select.ts";
export {
  casesFingerprint,
  parseShard,
  type Shard,
  shardCases,
  type ShardOptions,
} from "./lib/eval/shard.ts";
export { mergeRuns, type NamedRunFile, runTotals } from "./lib/eval/merge_runs.ts";
export {
  repeatedCases,
  repeatedVerdict,
  repeatFeed,
  type RepeatOptions,
} from "./lib/eval/repeat.ts";
export {
  type FeedNeeds,
  type RunEnd,
  type RunObserver,
  type RunStart,
} from "./lib/eval/run_loop.ts";
export type { CaseFeed } from "./lib/eval/case_source.ts";

// Everything `dbagenteval run` does, as one call (lib/run/)
export { runEval, type RunIo, type RunOutcome, type TextSink } from "./lib/run/run.ts";
export { type RuleSpec, type RunOptions } from "./lib/run/run_setup.ts";
export { type AgentDbCopy, agentDbSetup, copyAgentDb, diffAgentCopy } from "./lib/eval/agent_db.ts";
export { DbChange, dbChange } from "./lib/eval/checks/db_change.ts";
export { DbNoChange } from "./lib/eval/checks/db_no_change.ts";
export { DbUnchanged } from "./lib/eval/checks/db_unchanged.ts";
export {
  DbDiffChange,
  dbDiffChange,
  type DbDiffChangeOptions,
} from "./lib/eval/checks/db_diff_change.ts";

// SQL rules (rules/)
export {
  AllowedColumns,
  AllowedTables,
  type ColumnRef,
  DEFAULT_FORBIDDEN_FUNCTIONS,
  type Dialect,
  DIALECTS,
  type NameSource,
  NoJoins,
  NoSubqueries,
  NumbersGrounded,
  parseSql,
  type QueryLevel,
  type QueryModel,
  type QueryPredicate,
  type QuerySource,
  ReadOnly,
  type ReadOnlyOptions,
  type SqlLiteral,
  SqlRule,
  type SqlRuleOptions,
  type SqlStatement,
  type TableRef,
  tableRefs,
  TenantFilter,
  type TenantFilterOptions,
} from "./rules/mod.ts";

// LLM judge (lib/judge)
export { JudgeError } from "./lib/errors.ts";
export { type CachedJudge, cachedJudge, type JudgeCacheKey } from "./lib/judge/cache.ts";
export {
  chatCompletionsUrl,
  Faithful,
  faithfulPrompt,
  type FaithfulPromptInput,
  JUDGE_CHECK_SOURCE,
  type JudgeCheckOptions,
  judgeChecks,
  openAiJudge,
  type OpenAiJudgeOptions,
  parseVerdict,
  type ReadVerdict,
  ReferenceAnswer,
  referenceAnswerPrompt,
  type ReferenceAnswerPromptInput,
  Relevant,
  relevantPrompt,
  type RelevantPromptInput,
  REPLY_FORM,
  type UnreadableVerdict,
  type Verdict,
} from "./lib/judge/mod.ts";

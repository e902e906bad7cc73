/**
 * The database diff engine: diff two SQLite files or two folders of them,
 * diff two diffs, and read and write the diff document as JSON.
 *
 * @module
 */
export { diffSqliteDatabases, streamSqliteDiff } from "./diff_sqlite.ts";
export { type DumpSink, dumpSqlite } from "./dump.ts";
export type { DiffListener } from "./listener.ts";
export { foldName } from "./names.ts";
export { type DatabaseSchema, readDatabaseSchema, type TableSchemaInfo } from "./schema_info.ts";
export { SqlRenderer } from "./render_sql.ts";
export { ChangesetRenderer } from "./render_changeset.ts";
export { type HtmlDiffOptions, HtmlRenderer, renderDiffHtml } from "./render_html.ts";
export { diffChanged, renderDiffSummary } from "./render_summary.ts";
export {
  type DatabaseSource,
  DEFAULT_DB_PATTERNS,
  diffFilesystemDatabases,
  type FilesystemDiffOptions,
} from "./diff_filesystem.ts";
export { diffDatabaseDiffs } from "./diff_of_diffs.ts";
export { diffFromJson, diffToJson } from "./json.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, type DiffOptions } from "./options.ts";
export { renderDiffText, type RenderOptions } from "./render_text.ts";
export * from "./types.ts";

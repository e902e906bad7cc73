/**
 * The FILE outputs of `db diff` (`--json`, `--html`, `--sql`, `--changeset`):
 * one rule for all of them. Each writes its file (`-`: stdout) as the one
 * diff runs, the streamed ones (`--sql`, `--changeset`) row by row and the
 * HTML page table by table, through a 1 MiB buffer, and what `db diff` prints without them (the text, `--summary`,
 * `--select`) is still printed, on stdout, unless an output takes stdout.
 *
 * @module
 */
import * as fs from "node:fs";
import process from "node:process";
import { ChangesetRenderer } from "../diff/render_changeset.ts";
import { type HtmlDiffOptions, HtmlRenderer } from "../diff/render_html.ts";
import { SqlRenderer } from "../diff/render_sql.ts";
import { writeDiffJson } from "../diff/json.ts";
import type { DiffListener } from "../diff/listener.ts";
import { foldName } from "../diff/names.ts";
import type { DatabaseDiff } from "../diff/types.ts";
import { BufferedFile } from "./_write_all.ts";
import { isStdout } from "../run/output.ts";

/** The FILE outputs asked for (`-` is stdout). */
export interface DiffFiles {
  readonly json?: string | undefined;
  readonly html?: string | undefined;
  readonly sql?: string | undefined;
  readonly changeset?: string | undefined;
}

/** Whether one of the outputs goes to stdout (then the text does not). */
export function takesStdout(files: DiffFiles): boolean {
  return [files.json, files.html, files.sql, files.changeset].some(isStdout);
}

/** The streamed outputs while the diff runs: their listeners, then `finish`. */
export interface OpenFiles {
  readonly listeners: readonly DiffListener[];
  /** Writes the rest (the JSON document), flushes and closes everything. */
  finish(diff: DatabaseDiff): void;
  /** Closes the files after a failure. */
  close(): void;
}

function open(file: string): { fd: number; out: BufferedFile } {
  const fd = isStdout(file) ? 1 : fs.openSync(file, "w");
  return { fd, out: new BufferedFile(fd) };
}

/** What the outputs need to know besides their files. */
export interface DiffFilesContext {
  /** The --table names, whose objects alone --sql writes. */
  readonly tables?: readonly string[] | undefined;
  /** The paths and plane the HTML page shows. */
  readonly page?: HtmlDiffOptions;
}

/**
 * Opens the outputs: the streamed ones as listeners of the diff.
 *
 * @param files the outputs
 * @param context the --table names, the HTML page's paths and plane
 * @returns the listeners and how to finish
 */
export function openDiffFiles(files: DiffFiles, context: DiffFilesContext = {}): OpenFiles {
  const { tables } = context;
  const opened: { fd: number; out: BufferedFile }[] = [];
  const listeners: DiffListener[] = [];
  let changeset: ChangesetRenderer | undefined;
  let html: HtmlRenderer | undefined;
  try {
    if (files.html !== undefined) {
      const file = open(files.html);
      opened.push(file);
      html = new HtmlRenderer({ write: (text) => file.out.text(text) }, context.page);
      listeners.push(html);
    }
    if (files.sql !== undefined) {
      const sql = open(files.sql);
      opened.push(sql);
      const names = tables === undefined ? undefined : new Set(tables.map(foldName));
      const keep = names === undefined ? undefined : (table: string) => names.has(foldName(table));
      listeners.push(new SqlRenderer({ write: (text) => sql.out.text(text) }, keep));
    }
    if (files.changeset !== undefined) {
      const file = open(files.changeset);
      opened.push(file);
      changeset = new ChangesetRenderer(file.out);
      listeners.push(changeset);
    }
  } catch (e) {
    for (const o of opened) if (o.fd !== 1) fs.closeSync(o.fd);
    throw e;
  }
  const close = () => {
    for (const o of opened) if (o.fd !== 1) fs.closeSync(o.fd);
    opened.length = 0;
  };
  return {
    listeners,
    close,
    finish(diff) {
      try {
        html?.finish(diff);
        for (const o of opened) o.out.flush();
        for (const o of changeset?.omitted ?? []) {
          process.stderr.write(`note: ${o.table} is not in the changeset (${o.reason})\n`);
        }
        if (files.json !== undefined) writeJson(files.json, diff);
      } finally {
        close();
      }
    },
  };
}

/**
 * `--json FILE` (or `-`, stdout): the document written as it is serialised,
 * never as one string (a wide table's kept rows make tens of MB of text).
 */
function writeJson(target: string, diff: DatabaseDiff): void {
  const { fd, out } = open(target);
  try {
    writeDiffJson(diff, (text) => out.text(text));
    out.text("\n");
    out.flush();
  } finally {
    if (fd !== 1) fs.closeSync(fd);
  }
}

/**
 * One listener telling every one of `listeners`; a method none has is left
 * out, so the engine does not stream rows nobody reads.
 *
 * @param listeners the listeners
 * @returns the listener
 */
export function fanOut(listeners: readonly DiffListener[]): DiffListener {
  const each = <K extends keyof DiffListener>(key: K): DiffListener => {
    const having = listeners.filter((l) => l[key] !== undefined);
    if (having.length === 0) return {};
    return {
      [key]: (arg: never) => {
        for (const l of having) (l[key] as (a: never) => void).call(l, arg);
      },
    };
  };
  return {
    ...each("start"),
    ...each("table"),
    ...each("row"),
    ...each("tableDone"),
    ...each("done"),
  };
}

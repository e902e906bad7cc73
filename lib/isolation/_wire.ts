/**
 * The messages between the pool and its workers, and errors across the
 * thread boundary: structured clone keeps an Error's message but not its
 * class or fields, so a service's error travels as data and is built again
 * on the main thread as the same class (a `SqliteQueryError` keeps its
 * `sql` and `code`, a `SqliteOpenError` its `path` and `reason`).
 *
 * @module
 */
import {
  AgentError,
  SqliteOpenError,
  type SqliteOpenReason,
  SqliteQueryError,
  UsageError,
} from "../errors.ts";
import type { EngineLimits, ServiceName } from "./service.ts";

/** What a worker is started with (its `workerData`). */
export interface WorkerStart {
  readonly limits: EngineLimits;
  /** Int32 slot 0: the id of the job the main thread wants stopped. */
  readonly cancel: SharedArrayBuffer;
  /**
   * Int32 cells, one per job sent (`seq` modulo their number): the job's id
   * while it waits; the worker swaps it for minus the id as it starts it,
   * and skips a job whose cell the main thread has set to 0 (taken back).
   */
  readonly claims: SharedArrayBuffer;
  /** BigInt64 slot 0: bytes of temporary files the workers hold now. */
  readonly tempUsage: SharedArrayBuffer;
  /** Compiled WebAssembly modules the pool shares with its workers, by name. */
  readonly modules: Readonly<Record<string, WebAssembly.Module>>;
}

/** A job, main thread to worker. */
export interface JobMessage {
  readonly id: number;
  /** Which claims cell is the job's (absent for a service's warm-up, never taken back). */
  readonly seq?: number | undefined;
  readonly service: ServiceName;
  readonly op: string;
  readonly args: unknown;
  /** The job's deadline in `Date.now()` milliseconds; absent for none. */
  readonly deadline?: number | undefined;
}

/** Sent once by a worker when it can take jobs. */
export interface ReadyMessage {
  readonly ready: true;
}

/** A job's answer, worker to main thread. */
export type ReplyMessage =
  & { readonly id: number; readonly retire: boolean }
  & (
    | { readonly ok: true; readonly value: unknown }
    | { readonly ok: false; readonly error: WireError }
  );

/** An error as data. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly sql?: string;
  readonly code?: number;
  readonly path?: string;
  readonly reason?: string;
  /** The worker's stack, for an error that is not one of ours (a bug, a trap). */
  readonly stack?: string;
}

/**
 * An error as data, keeping the fields of the classes lib/errors.ts defines.
 *
 * @param e what was thrown
 * @returns the data
 */
export function errorToWire(e: unknown): WireError {
  if (e instanceof SqliteQueryError) {
    return { name: e.name, message: e.message, sql: e.sql, code: e.code };
  }
  if (e instanceof SqliteOpenError) {
    return { name: e.name, message: e.message, path: e.path, reason: e.reason };
  }
  if (e instanceof Error) {
    return {
      name: e.name,
      message: e.message,
      ...(e.stack !== undefined ? { stack: e.stack } : {}),
    };
  }
  return { name: "Error", message: String(e) };
}

/**
 * The error again, as its own class where it is one of ours.
 *
 * @param w the data
 * @returns the error
 */
export function errorFromWire(w: WireError): Error {
  switch (w.name) {
    case "SqliteQueryError":
      return new SqliteQueryError(w.sql ?? "", w.code ?? 1, w.message);
    case "SqliteOpenError":
      return new SqliteOpenError(
        w.path ?? "",
        (w.reason ?? "unreadable") as SqliteOpenReason,
        w.message,
      );
    case "UsageError":
      return new UsageError(w.message);
    case "AgentError":
      return new AgentError(w.message);
  }
  const e = new Error(w.message);
  if (w.name !== "Error") e.name = w.name;
  if (w.stack !== undefined) e.stack = w.stack;
  return e;
}

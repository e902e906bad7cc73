/**
 * Naming a PostgreSQL database for people: the URL without its password,
 * with what the environment fills in (PGHOST, PGPORT, PGUSER, PGDATABASE),
 * and connection errors as one line a person can act on.
 *
 * @module
 */
import os from "node:os";
import process from "node:process";

/** Where a PostgreSQL URL points, the password left out. */
export interface PostgresTarget {
  readonly host: string;
  readonly port: string;
  readonly user: string;
  readonly database: string;
}

function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}

/** libpq's TLS modes, which the URL's `sslmode` takes. */
const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"];

/**
 * What is wrong with a `postgres://` URL as written, before a driver reads
 * it: a port out of range, text that is not a URL (a password with `@`,
 * `/` or `#` not percent-encoded), or an `sslmode` that is none.
 *
 * @param url the URL
 * @returns a few words and the next step, or undefined when it can be read
 */
export function urlProblem(url: string): string | undefined {
  // The authority: after the scheme, up to the path, query or fragment.
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(url)?.[1] ?? "";
  const hostPart = authority.slice(authority.lastIndexOf("@") + 1);
  for (const host of hostPart.split(",")) {
    const port = /:([^:\]]*)$/.exec(host)?.[1];
    if (port === undefined || port === "") continue;
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      return `port "${port}" is not a port (1 to 65535); check the URL`;
    }
  }
  let parsed: URL;
  try {
    parsed = new URL(url.replace(hostPart, hostPart.split(",")[0]!));
  } catch {
    return "it is not a valid URL; write postgres://user:password@host:port/database, with @, :, / and # in the user name or password percent-encoded (%40, %3A, %2F, %23)";
  }
  const ssl = parsed.searchParams.get("sslmode");
  if (ssl !== null && !SSL_MODES.includes(ssl)) {
    return `sslmode "${ssl}" is not one of ${SSL_MODES.join(", ")}; check the URL`;
  }
  return undefined;
}

/**
 * Reads a `postgres://` or `postgresql://` URL, filling what it omits from
 * the PG* environment variables as postgres.js does.
 *
 * @param url the URL
 * @returns where it points
 */
export function postgresTarget(url: string): PostgresTarget {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const user = decodeURIComponent(parsed?.username ?? "") || env("PGUSERNAME") || env("PGUSER") ||
    os.userInfo().username;
  const database = decodeURIComponent((parsed?.pathname ?? "").replace(/^\//, "")) ||
    env("PGDATABASE") || user;
  return {
    host: parsed?.hostname || env("PGHOST") || "localhost",
    port: parsed?.port || env("PGPORT") || "5432",
    user,
    database,
  };
}

/**
 * The database as a person reads it: `postgres://user@host:port/db`, never
 * with the password.
 *
 * @param target where the URL points
 * @returns the text
 */
export function targetText(target: PostgresTarget): string {
  const host = target.host.includes(":") ? `[${target.host}]` : target.host;
  return `postgres://${target.user}@${host}:${target.port}/${target.database}`;
}

/**
 * Why a connection failed, in a few words and the next step, from a
 * postgres.js or Node error.
 *
 * @param error what the driver raised
 * @param target where it tried to connect
 * @returns one line
 */
export function connectProblem(error: unknown, target: PostgresTarget): string {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === "string" ? e.code : "";
  const message = (typeof e?.message === "string" ? e.message : String(error)).split("\n")[0]!;
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused; is the server running and listening on ${target.host}:${target.port}?`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `unknown host "${target.host}"; check the host name`;
    case "CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return `no answer from ${target.host}:${target.port} (timed out); check the host, port and firewall`;
    case "28P01":
    case "28000":
      return `authentication failed for user "${target.user}"; check the user name and password (in the URL or PGPASSWORD)`;
    case "3D000":
      return `database "${target.database}" does not exist; create it, or name another in the URL`;
    default:
      return code === "" ? message : `${message} (${code})`;
  }
}

/**
 * The PostgreSQL server the server tests use: DBAGENTEVAL_TEST_POSTGRES_URL,
 * a database with Chinook loaded, reached as a plain role that reads every
 * table and has no file or program rights; DBAGENTEVAL_TEST_POSTGRES_SUPERUSER_URL,
 * the same database as its superuser (`.ci/postgres start DIR` starts one and
 * prints both variables). Without it the server tests skip, saying so on
 * stderr; with DBAGENTEVAL_REQUIRE_SYSTEM=1 (as .ci/run sets; or the older
 * DBAGENTEVAL_REQUIRE_POSTGRES=1) a missing server is a failure instead, so
 * CI never passes by skipping them. The other system packages the tests use
 * are in system_packages.ts.
 */
import process from "node:process";
import { systemRequired } from "./system_packages.ts";

const url = process.env["DBAGENTEVAL_TEST_POSTGRES_URL"];

/** The server URL, or undefined when the server tests skip. */
export const POSTGRES_URL: string | undefined = url === undefined || url === "" ? undefined : url;

const superuser = process.env["DBAGENTEVAL_TEST_POSTGRES_SUPERUSER_URL"];

/**
 * The same server as its superuser (for the tests of what the harness
 * refuses, and for the ones that create databases), or undefined.
 */
export const POSTGRES_SUPERUSER_URL: string | undefined = superuser === undefined ||
    superuser === ""
  ? undefined
  : superuser;

/** The skip reason for node:test's `{ skip }`, or false when there is a server. */
export const NO_SERVER: string | false = POSTGRES_URL === undefined ||
    POSTGRES_SUPERUSER_URL === undefined
  ? "no PostgreSQL server: set DBAGENTEVAL_TEST_POSTGRES_URL and DBAGENTEVAL_TEST_POSTGRES_SUPERUSER_URL (.ci/postgres start DIR prints them)"
  : false;

if (NO_SERVER !== false) {
  if (systemRequired() || process.env["DBAGENTEVAL_REQUIRE_POSTGRES"] === "1") {
    throw new Error(`DBAGENTEVAL_REQUIRE_SYSTEM=1 but ${NO_SERVER}`);
  }
  process.stderr.write(
    `SKIPPING the PostgreSQL server tests: ${NO_SERVER}; apt-get install postgresql\n`,
  );
}

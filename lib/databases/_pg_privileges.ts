/**
 * Whether a PostgreSQL login may touch the database server's machine.
 *
 * A read-only transaction stops writes to tables, not `COPY (SELECT ...) TO
 * '/path'`, `COPY ... TO PROGRAM 'cmd'`, `pg_read_file()` or a `DO` block
 * that runs one of them: those only need the rights of a superuser or of the
 * roles `pg_write_server_files`, `pg_read_server_files` and
 * `pg_execute_server_program`. SQL that nobody here wrote (an agent's, a
 * model's predictions, a benchmark's reference queries, the counterexample
 * search's candidates) must not have them.
 *
 * What counts is every role the login can become, not the role it runs as
 * now: `SET ROLE` cannot take rights away, since the statement itself can
 * undo it (`DO $$ BEGIN RESET ROLE; ... END $$`). So membership is asked of
 * `session_user`, directly or through other roles.
 *
 * @module
 */

/** The query: the superuser roles and file or program roles the login is a member of. */
export const PRIVILEGES_SQL = `SELECT session_user::text AS login,
  (SELECT string_agg(rolname, ', ' ORDER BY rolname) FROM pg_catalog.pg_roles
    WHERE rolsuper AND pg_catalog.pg_has_role(session_user, oid, 'MEMBER')) AS superusers,
  (SELECT string_agg(rolname, ', ' ORDER BY rolname) FROM pg_catalog.pg_roles
    WHERE rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program')
      AND pg_catalog.pg_has_role(session_user, oid, 'MEMBER')) AS roles`;

/** The flag that allows such a login, named in the refusal. */
export const ALLOW_FLAG = "--allow-superuser";

/**
 * What the login may do on the server's machine, in words, or undefined
 * when it may do none of it.
 *
 * @param row the one row of {@link PRIVILEGES_SQL}: login, superusers, roles (text or null)
 * @returns e.g. `the user "app" is a superuser`
 */
export function serverRights(row: readonly unknown[]): string | undefined {
  const [login, superusers, roles] = row.map((v) => typeof v === "string" ? v : "");
  const parts: string[] = [];
  const supers = superusers!.split(", ").filter((r) => r !== "");
  // A superuser is a member of every role: the roles would say nothing more.
  if (supers.includes(login!)) return `the user "${login}" is a superuser`;
  if (supers.length > 0) parts.push(`can become the superuser ${supers.join(", ")} (SET ROLE)`);
  if (roles !== "") parts.push(`is a member of ${roles}`);
  return parts.length === 0 ? undefined : `the user "${login}" ${parts.join(" and ")}`;
}

/**
 * The one line that refuses such a login.
 *
 * @param name the database as shown
 * @param rights what {@link serverRights} said
 * @returns the message
 */
export function refusal(name: string, rights: string): string {
  return `Refusing PostgreSQL ${name}: ${rights}, so the SQL run there (agents', predictions, ` +
    `reference queries, counterexample candidates) could read and write files and run programs ` +
    `on the database server; connect as a role without those rights (docs/postgres.md, ` +
    `"A role for the harness"), or pass ${ALLOW_FLAG} to allow it`;
}

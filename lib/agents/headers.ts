/**
 * Request headers for the HTTP agent transport, written as `Name: value`
 * (curl's -H form): from `--agent-header` flags and from the
 * DBAGENTEVAL_AGENT_HEADERS environment variable (one header per line), so a
 * token need not appear on the command line.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

/**
 * The environment variable that holds agent headers, one `Name: value` per line.
 *
 * @example
 * ```ts
 * import { AGENT_HEADERS_ENV } from "./headers.ts";
 * AGENT_HEADERS_ENV; // "DBAGENTEVAL_AGENT_HEADERS"
 * ```
 */
export const AGENT_HEADERS_ENV = "DBAGENTEVAL_AGENT_HEADERS";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Reads `Name: value` headers. Later ones replace earlier ones of the same
 * name (names compare without case), so flags given after the environment
 * variable's lines win.
 *
 * @param lines each `Name: value`
 * @param where where they came from, for messages, e.g. `--agent-header`
 * @param base headers read before, to add to
 * @returns the headers, names in lower case
 * @throws {UsageError} for a line without a colon or with a bad name
 * @example
 * ```ts
 * import { parseHeaders } from "./headers.ts";
 * parseHeaders(["Authorization: Bearer abc", "X-Team: data"], "--agent-header");
 * // { authorization: "Bearer abc", "x-team": "data" }
 * ```
 */
export function parseHeaders(
  lines: readonly string[],
  where: string,
  base: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const headers: Record<string, string> = { ...base };
  for (const line of lines) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? "" : line.slice(0, colon).trim();
    if (!TOKEN.test(name)) {
      // The value is not quoted: it is often a secret.
      throw new UsageError(
        `${where}: ${
          name === "" ? "a header without a name and a colon" : `"${name}" is not a header name`
        }; write each header as "Name: value", e.g. "Authorization: Bearer TOKEN"`,
      );
    }
    headers[name.toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * The toolkit's version; kept equal to deno.json and package.json by a test.
 *
 * @example
 * ```ts
 * import { VERSION } from "./version.ts";
 * console.log(`dbagenteval ${VERSION}`); // dbagenteval 0.1.0
 * ```
 */
export const VERSION = "0.1.0";

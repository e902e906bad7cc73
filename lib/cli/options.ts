/**
 * Commander's side of the option tables: a row of a table
 * (lib/eval/run_options.ts, lib/option_values.ts's parsers) becomes a
 * commander `Option`, and a parser's UsageError becomes commander's "invalid
 * argument" message (`error: option '--concurrency <n>' argument '0' is
 * invalid. expected ...`).
 *
 * @module
 */
import { InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import * as values from "../option_values.ts";
import type { OptionRow } from "../option_values.ts";

/**
 * A parser for commander: the same parser, its UsageError turned into
 * commander's InvalidArgumentError.
 *
 * @param parse the parser
 * @returns the parser commander takes
 * @example
 * ```ts
 * import { commanderParser } from "./options.ts";
 * commanderParser(Number)("4"); // 4
 * ```
 */
export function commanderParser<A extends unknown[], V>(
  parse: (...args: A) => V,
): (...args: A) => V {
  return (...args: A): V => {
    try {
      return parse(...args);
    } catch (error) {
      if (error instanceof UsageError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

/** {@link values.integer} for commander. */
export const integer = (min: number): (value: string) => number =>
  commanderParser(values.integer(min));
/** {@link values.bytes} for commander. */
export const bytes: (value: string) => number = commanderParser(values.bytes);
/** {@link values.collect} for commander. */
export const collect: (value: string, previous: readonly string[] | undefined) => string[] =
  values.collect;

/**
 * The commander option of a row of a table.
 *
 * @param row the row
 * @returns the option, ready for `command.addOption()`
 * @example
 * ```ts
 * import { toOption } from "./options.ts";
 * import { ALLOW_SUPERUSER_OPTION } from "../eval/run_options.ts";
 * toOption(ALLOW_SUPERUSER_OPTION).long; // "--allow-superuser"
 * ```
 */
export function toOption(row: OptionRow): Option {
  const option = new Option(row.flags, row.description);
  const parse = values.parserOf(row);
  if (parse !== undefined) option.argParser(commanderParser(parse));
  if (row.default !== undefined) option.default(row.default);
  return option as unknown as Option;
}

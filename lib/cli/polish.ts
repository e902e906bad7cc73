/**
 * What commander does not do the way a user expects, fixed once for every
 * command (including the ones added later), so cli.ts stays a list of
 * commands:
 *
 * - an unknown option is named first (`--agnet`: did you mean `--agent`?),
 *   not hidden behind "required option '--db' not specified";
 * - a usage error points at the help of the command that was run
 *   (`run dbagenteval db diff --help`), not the program's;
 * - `help db diff` shows the help of `db diff` (commander's help command
 *   goes one level deep), and `-v` prints the version like `-V`;
 * - `help nonsense` is an unknown command, one line like `dbagenteval
 *   nonsense` (commander prints the whole help and no error).
 *
 * @module
 */

/** The parts of a commander Command used here (its private methods included). */
interface CommandInternals {
  readonly commands: readonly CommandInternals[];
  readonly parent: CommandInternals | null;
  name(): string;
  configureOutput(
    config: { outputError?: (text: string, write: (s: string) => void) => void },
  ): unknown;
  parseOptions(args: string[]): { operands: string[]; unknown: string[] };
  unknownOption(flag: string): void;
  unknownCommand(): void;
  args: string[];
  _checkForMissingMandatoryOptions(): void;
  _findCommand(name: string): CommandInternals | undefined;
  _dispatchHelpCommand(name: string | undefined): unknown;
}

function fullName(command: CommandInternals): string {
  const names: string[] = [];
  for (let c: CommandInternals | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function polishOne(command: CommandInternals): void {
  const name = fullName(command);
  command.configureOutput({
    // One line, like every other error: commander puts its "Did you mean"
    // suggestion on a line of its own.
    outputError: (text, write) =>
      write(`${text.trim().replace(/\s*\n\s*/g, " ")} (run ${name} --help for usage)\n`),
  });
  if (command.commands.length > 0) {
    const dispatchHelp = command._dispatchHelpCommand.bind(command);
    command._dispatchHelpCommand = (sub) => {
      if (sub !== undefined && command._findCommand(sub) === undefined) {
        // unknownCommand() names this.args[0], which is "help" here.
        command.args = [sub];
        command.unknownCommand();
      }
      return dispatchHelp(sub);
    };
    return;
  }
  let unknown: string[] = [];
  const parseOptions = command.parseOptions.bind(command);
  command.parseOptions = (args) => {
    const parsed = parseOptions(args);
    unknown = parsed.unknown;
    return parsed;
  };
  const checkMandatory = command._checkForMissingMandatoryOptions.bind(command);
  command._checkForMissingMandatoryOptions = () => {
    // unknown starts at the first unknown option (commander's rule).
    if (unknown.length > 0) command.unknownOption(unknown[0]!);
    checkMandatory();
  };
}

/**
 * Applies the fixes to a program and all its commands. Call it after the
 * last command is added.
 *
 * @param program the root command
 */
export function polishCommands(program: object): void {
  const walk = (command: CommandInternals) => {
    polishOne(command);
    command.commands.forEach(walk);
  };
  walk(program as CommandInternals);
}

/**
 * Rewrites the arguments that commander reads differently from other tools:
 * `help a b` becomes `a help b`, and a lone `-v` becomes `--version`.
 *
 * @param argv process.argv
 * @returns the arguments to parse
 */
export function normalizeArgv(argv: readonly string[]): string[] {
  const [runtime, script, ...args] = argv;
  const head = [runtime!, script!];
  if (args.length === 1 && args[0] === "-v") return [...head, "--version"];
  // `help db diff` is `db help diff`: the help command of the last command
  // but one, which names an unknown last word as an unknown command.
  if (args[0] === "help" && args.length > 2) {
    return [...head, ...args.slice(1, -1), "help", args.at(-1)!];
  }
  return [...argv];
}

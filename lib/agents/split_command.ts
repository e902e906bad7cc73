/**
 * Splits an --agent-cmd string into argv the way a POSIX shell splits words
 * (spaces, 'single' and "double" quotes, backslash escapes), without running
 * a shell: no variables, globs, pipes or redirections. Shell syntax outside
 * quotes is refused with a hint to write `sh -c '...'`, so that it never
 * reaches the program as a literal argument by surprise.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

const SHELL_SYNTAX = new Set(["|", "&", ";", "<", ">", "(", ")", "$", "`"]);

/**
 * The words of a command.
 *
 * @param command what the user wrote, e.g. `python3 "my agent.py" --fast`
 * @returns the program and its arguments
 * @throws {UsageError} for an empty command, an unclosed quote, or shell syntax outside quotes
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  const fail = (why: string): never => {
    throw new UsageError(`--agent-cmd "${command}": ${why}`);
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) {
        word += command[++i];
      } else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\") {
      if (i + 1 >= command.length) fail("it ends with a lone backslash");
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else if (SHELL_SYNTAX.has(ch) || (ch === "~" && !inWord)) {
      fail(
        `"${ch}" is shell syntax, and the command runs without a shell; ` +
          `quote it, or ask for a shell: --agent-cmd "sh -c '...'"`,
      );
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) fail(`the ${quote} quote is not closed`);
  if (inWord) words.push(word);
  if (words.length === 0) fail('give a program to run, e.g. --agent-cmd "python3 agent.py"');
  return words;
}

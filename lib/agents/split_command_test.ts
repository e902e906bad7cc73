import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { splitCommand } from "./split_command.ts";

describe("splitCommand()", () => {
  const cases: [string, string, string[]][] = [
    ["splits words at spaces", "python3  agent.py --fast", ["python3", "agent.py", "--fast"]],
    ["keeps a single-quoted word whole", "python3 'my agent.py'", ["python3", "my agent.py"]],
    ["keeps a double-quoted word whole", 'python3 "my agent.py"', ["python3", "my agent.py"]],
    ["reads a backslash escape", "python3 my\\ agent.py", ["python3", "my agent.py"]],
    ["keeps shell syntax inside quotes", "sh -c 'a | b > c'", ["sh", "-c", "a | b > c"]],
    ["keeps an empty quoted word", "agent ''", ["agent", ""]],
    ["joins quoted and bare parts", "--name='a b'c", ["--name=a bc"]],
    ["keeps a tilde inside a word", "agent a~b", ["agent", "a~b"]],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(splitCommand(input), expected));
  }

  const bad: [string, string, RegExp][] = [
    ["refuses an empty command", "   ", /give a program to run/],
    ["refuses an unclosed quote", "python3 'agent.py", /quote is not closed/],
    ["refuses a pipe outside quotes", "python3 agent.py | tee log", /"\|" is shell syntax.*sh -c/],
    ["refuses a redirection", "python3 agent.py > log", /">" is shell syntax/],
    ["refuses a variable", "python3 $AGENT", /"\$" is shell syntax/],
    ["refuses a tilde at the start of a word", "python3 ~/agent.py", /"~" is shell syntax/],
  ];
  for (const [name, input, message] of bad) {
    it(name, () =>
      assert.throws(
        () => splitCommand(input),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
      ));
  }
});

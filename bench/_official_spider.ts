/**
 * Shared by the Spider benchmarks: a copy of Spider's official evaluator
 * (`taoyds/test-suite-sql-eval`, not in this repository) in a temporary
 * folder, run with Debian's python3, python3-sqlparse and python3-nltk.
 *
 * NLTK's tokenizer is told `preserve_line=True` (it otherwise needs the punkt
 * model, a download). Per-question verdicts come from the evaluator's own
 * `exec_eval.eval_exec_match`, each line read as its `evaluation.py` reads it
 * (stripped, cut at the first TAB, `value` made `1`); the driver that calls it
 * is written below, the evaluator's code is only copied and imported.
 *
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FILES = ["evaluation.py", "exec_eval.py", "parse.py", "process_sql.py"];

/** Prints one verdict per question (1, 0, or E when the gold fails: the evaluator asserts). */
const DRIVER = `
import sys
from exec_eval import eval_exec_match
gold_file, pred_file, db_dir, keep = sys.argv[1:5]
gold = [l.strip().split("\\t") for l in open(gold_file) if l.strip()]
pred = [l.strip().split("\\t")[0] for l in open(pred_file) if l.strip()]
assert len(gold) == len(pred)
out = []
for (g_str, db), p_str in zip(gold, pred):
    db_path = db_dir + "/" + db + "/" + db + ".sqlite"
    try:
        out.append(str(eval_exec_match(db=db_path, p_str=p_str.replace("value", "1"), g_str=g_str,
                                       plug_value=False, keep_distinct=keep == "keep",
                                       progress_bar_for_each_datapoint=False)))
    except AssertionError:
        out.append("E")
print("".join(out))
`;

/** A copy of the official evaluator, ready to run. */
export interface OfficialSpider {
  /** The temporary folder it is in. */
  readonly work: string;
  /** The per-question verdicts, `1`, `0` or `E`, one character a question. */
  verdicts(gold: string, pred: string, dbDir: string, keepDistinct: boolean): string;
  /** Runs its evaluation.py with these arguments and returns what it printed. */
  evaluation(args: readonly string[]): string;
  /** Removes the copy. */
  remove(): void;
}

/** The python3 with Debian's sqlparse and nltk. */
export const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

/**
 * Copies the evaluator from a work tree or a bare git repository.
 *
 * @param official the copy of taoyds/test-suite-sql-eval
 * @returns the evaluator
 */
export function officialSpider(official: string): OfficialSpider {
  const work = mkdtempSync(join(tmpdir(), "spider-official-"));
  for (const f of FILES) {
    const text = existsSync(join(official, f))
      ? readFileSync(join(official, f), "utf8")
      : execFileSync("git", ["--git-dir", official, "show", `HEAD:${f}`], { encoding: "utf8" });
    writeFileSync(
      join(work, f),
      text.replace("word_tokenize(string)", "word_tokenize(string, preserve_line=True)"),
    );
  }
  writeFileSync(join(work, "_verdicts.py"), DRIVER);
  const run = (args: readonly string[]): string => {
    const r = spawnSync(PYTHON, args, { cwd: work, encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr.slice(-2000)}`);
    return r.stdout;
  };
  return {
    work,
    verdicts: (gold, pred, dbDir, keep) =>
      run(["_verdicts.py", gold, pred, dbDir, keep ? "keep" : "drop"]).trim(),
    evaluation: (args) => run(["evaluation.py", ...args]),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

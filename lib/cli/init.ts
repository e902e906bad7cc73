/**
 * `dbagenteval init [--agent ts] [--dir DIR]`: writes a commented
 * dbagenteval.yaml, an example cases file, a small example database
 * (shop.db) and an agent skeleton, so that `dbagenteval run` passes at once
 * and each file shows where the user's own goes.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { UsageError } from "../errors.ts";
import { agentFiles, type AgentKind, CASES_YAML, configYaml, SHOP_SQL } from "./_init_templates.ts";

/** The options of `init`. */
export interface InitOptions {
  readonly agent: AgentKind;
  readonly dir: string;
  readonly force?: true;
}

/**
 * Writes the starter files.
 *
 * @param options the agent kind, the folder, and whether to overwrite
 * @returns the exit code: 0, or 2 when a file exists (nothing is written then)
 */
export function initCommand(options: InitOptions): number {
  const dir = options.dir;
  const files: Record<string, string> = {
    "dbagenteval.yaml": configYaml(options.agent),
    "cases.yaml": CASES_YAML,
    ...agentFiles(options.agent),
  };
  const names = [...Object.keys(files), "shop.db"];
  if (!options.force) {
    const existing = names.filter((n) => fs.existsSync(path.join(dir, n)));
    if (existing.length > 0) {
      throw new UsageError(
        `init: ${existing.join(", ")} already exist(s) in ${dir}; ` +
          "run it in an empty folder (--dir DIR), or pass --force to overwrite",
      );
    }
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const dbFile = path.join(dir, "shop.db");
  fs.rmSync(dbFile, { force: true });
  const db = new DatabaseSync(dbFile);
  try {
    db.exec(SHOP_SQL);
  } finally {
    db.close();
  }
  const where = dir === "." ? "" : `cd ${dir} && `;
  const next = {
    ts: `${where}dbagenteval run\nThen replace generateSql() in agent.ts with your model.`,
    python: `${where}dbagenteval run\nThen replace generate_sql() in agent.py with your model.`,
    http: `${where}python3 server.py &  and then: dbagenteval run\n` +
      "Then replace generate_sql() in agent.py with your model.",
  }[options.agent];
  process.stdout.write(
    names.map((n) => `wrote ${path.join(dir, n)}\n`).join("") + `\nNext: ${next}\n`,
  );
  return 0;
}

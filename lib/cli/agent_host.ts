/**
 * The hidden `__agent-host MODULE TOKEN` command: the process an `--agent`
 * module is called in (lib/agents/module_host.ts serves it; this file loads
 * the module as `--agent` names it).
 *
 * @module
 */
import { serveModuleAgent } from "../agents/module_host.ts";
import { aliasOwnPackage, loadFunction } from "../run/load_module.ts";

/**
 * Runs the host until stdin closes.
 *
 * @param ref the agent's `file:export`
 * @param token the reply prefix
 */
export async function agentHost(ref: string, token: string): Promise<void> {
  // An agent module that imports the package gets this copy of it.
  aliasOwnPackage(() => import("../../mod.ts"));
  await serveModuleAgent({ token, load: () => loadFunction("--agent", ref) });
}

#!/usr/bin/env bun
// The package's `dbagenteval` command (package.json "bin"): the CLI under
// Bun, which runs TypeScript wherever it is. Deno and Node do not run
// TypeScript inside node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING),
// so the package's command is Bun's; from a checkout, `deno run -A cli.ts`
// runs the same CLI, and the single binary needs no runtime.
if (typeof globalThis.Bun === "undefined") {
  process.stderr.write(
    "error: the dbagenteval package's command runs under Bun: run bunx dbagenteval (npm install -g bun), or use the single binary\n",
  );
  process.exit(2);
}
await import("../cli.ts");

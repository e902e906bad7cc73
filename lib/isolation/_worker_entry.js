// The worker's entry as JavaScript: `deno test` type-checks the module graph
// of every worker it starts, and a JavaScript root keeps that to a moment.
import "./worker.ts";

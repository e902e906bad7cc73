/// <reference lib="deno.unstable" />
/**
 * A `deno lint` plugin for this repository's own code: the harness's
 * functions that run an agent return Promises, and a result used without
 * `await` is `undefined` where a scorecard was meant (`card.summary` of a
 * Promise). TypeScript already rejects `card.summary()` on a Promise; this
 * rule also catches the call whose result is dropped or stored unawaited.
 *
 * @module
 */

/** The exports of mod.ts that return a Promise a caller must await. */
const ASYNC_API = new Set(["checkQuestion", "evaluate", "runCase", "runSuite"]);

const plugin: Deno.lint.Plugin = {
  name: "dbagenteval",
  rules: {
    "await-harness": {
      create(context) {
        return {
          CallExpression(node) {
            const callee = node.callee;
            const name = callee.type === "Identifier"
              ? callee.name
              : callee.type === "MemberExpression" && callee.property.type === "Identifier"
              ? callee.property.name
              : undefined;
            if (name === undefined || !ASYNC_API.has(name)) return;
            const parent = node.parent;
            if (parent.type === "ExpressionStatement" || parent.type === "VariableDeclarator") {
              context.report({
                node,
                message: `${name}() returns a Promise; await it`,
                hint: `write await ${name}(...)`,
              });
            }
          },
        };
      },
    },
  },
};

export default plugin;

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { DATABASE_KINDS, resolveDatabasePath } from "./registry.ts";

describe("DATABASE_KINDS", () => {
  const cases: [string, string][] = [
    ["postgres://me:pw@localhost:5432/chinook", "postgres"],
    ["postgresql://me@localhost/chinook", "postgres"],
    ["POSTGRES://me@localhost/chinook", "postgres"],
    ["pglite:chinook.sql", "pglite"],
    ["pglite:data/pgdir", "pglite"],
    ["chinook.sqlite", "sqlite"],
    ["postgres.db", "sqlite"],
    ["./pglite.sqlite", "sqlite"],
  ];
  for (const [value, kind] of cases) {
    it(`picks ${kind} for ${value}`, () => {
      assert.equal(DATABASE_KINDS.find((k) => k.matches(value))?.name, kind);
    });
  }
});

describe("resolveDatabasePath()", () => {
  const inConf = (p: string) => `conf/${p}`;
  const cases: [string, string][] = [
    ["shop.db", "conf/shop.db"],
    ["pglite:chinook.sql", "pglite:conf/chinook.sql"],
    ["postgres://me@db/chinook", "postgres://me@db/chinook"],
  ];
  for (const [value, resolved] of cases) {
    it(`resolves ${value} as ${resolved}`, () => {
      assert.equal(resolveDatabasePath(value, inConf), resolved);
    });
  }
});

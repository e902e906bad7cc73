/**
 * The acceptance corpus: SQL over sqlite, postgres and mysql with the
 * expected verdict of ReadOnly and of TenantFilter("store_id", { value: "s1" }).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Trace } from "../lib/eval/trace.ts";
import type { CheckResult } from "../lib/eval/check.ts";
import { ReadOnly } from "./read_only.ts";
import { TenantFilter } from "./tenant_filter.ts";

type D = "sqlite" | "postgres" | "mysql";
type V = "PASS" | "FAIL";
/** [what it is, dialect, SQL, ReadOnly, TenantFilter] */
const corpus: [string, D, string, V, V][] = [
  // Safe queries: both rules pass.
  ["the tutorial's filtered query", "sqlite", "SELECT SUM(amount) AS total FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'", "PASS", "PASS"],
  ["a filter written value-first", "sqlite", "SELECT COUNT(*) FROM orders WHERE 's1' = store_id", "PASS", "PASS"],
  ["an IN list of the one tenant", "postgres", "SELECT * FROM orders WHERE store_id IN ('s1') AND amount > 10", "PASS", "PASS"],
  ["keywords inside strings", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' AND note = 'DELETE FROM orders; DROP TABLE x'", "PASS", "PASS"],
  ["keywords inside strings (mysql)", "mysql", "SELECT * FROM orders WHERE store_id = 's1' AND note = 'UPDATE orders SET a=1 -- x'", "PASS", "PASS"],
  ["keywords inside strings (postgres)", "postgres", "SELECT 'INSERT INTO t VALUES (1)' AS s FROM orders WHERE store_id = 's1'", "PASS", "PASS"],
  ["a filtered CTE", "sqlite", "WITH o AS (SELECT * FROM orders WHERE store_id = 's1') SELECT COUNT(*) FROM o", "PASS", "PASS"],
  ["a filtered CTE (postgres)", "postgres", "WITH o AS (SELECT amount FROM orders WHERE store_id = 's1' AND status = 'DELIVERED') SELECT SUM(amount) FROM o", "PASS", "PASS"],
  ["a CTE that shadows the table name", "sqlite", "WITH orders AS (SELECT * FROM orders WHERE store_id = 's1') SELECT * FROM orders", "PASS", "PASS"],
  ["HAVING on the tenant key", "sqlite", "SELECT store_id, SUM(amount) FROM orders GROUP BY store_id HAVING store_id = 's1'", "PASS", "PASS"],
  ["HAVING on the tenant key (mysql)", "mysql", "SELECT store_id, COUNT(*) FROM orders GROUP BY store_id HAVING store_id = 's1'", "PASS", "PASS"],
  ["a join with each side filtered", "sqlite", "SELECT o.id, i.sku FROM orders o JOIN items i ON i.order_id = o.id WHERE o.store_id = 's1' AND i.store_id = 's1'", "PASS", "PASS"],
  ["a join filtered in ON", "postgres", "SELECT o.id FROM orders o INNER JOIN items i ON i.order_id = o.id AND i.store_id = 's1' WHERE o.store_id = 's1'", "PASS", "PASS"],
  ["a LEFT JOIN whose right side is filtered in ON", "mysql", "SELECT o.id, i.sku FROM orders o LEFT JOIN items i ON i.order_id = o.id AND i.store_id = 's1' WHERE o.store_id = 's1'", "PASS", "PASS"],
  ["a comma join with each side filtered", "sqlite", "SELECT * FROM orders o, items i WHERE o.id = i.order_id AND o.store_id = 's1' AND i.store_id = 's1'", "PASS", "PASS"],
  ["a join filtered through the table names", "sqlite", "SELECT * FROM orders JOIN items ON items.order_id = orders.id WHERE orders.store_id = 's1' AND items.store_id = 's1'", "PASS", "PASS"],
  ["a UNION with each branch filtered", "postgres", "SELECT id FROM orders WHERE store_id = 's1' UNION SELECT id FROM returns WHERE store_id = 's1'", "PASS", "PASS"],
  ["an INTERSECT with each branch filtered", "postgres", "SELECT id FROM orders WHERE store_id = 's1' INTERSECT SELECT order_id FROM items WHERE store_id = 's1'", "PASS", "PASS"],
  ["an IN subquery filtered too", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' AND id IN (SELECT order_id FROM items WHERE store_id = 's1')", "PASS", "PASS"],
  ["an EXISTS subquery filtered too", "postgres", "SELECT * FROM orders o WHERE o.store_id = 's1' AND EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id AND i.store_id = 's1')", "PASS", "PASS"],
  ["a derived table filtered inside", "mysql", "SELECT t.total FROM (SELECT SUM(amount) AS total FROM orders WHERE store_id = 's1') AS t", "PASS", "PASS"],
  ["a scalar subquery filtered too", "sqlite", "SELECT (SELECT MAX(amount) FROM orders WHERE store_id = 's1') AS top", "PASS", "PASS"],
  ["a query without tables", "sqlite", "SELECT 1 + 1", "PASS", "PASS"],
  ["a double-quoted tenant column in sqlite", "sqlite", "SELECT * FROM orders WHERE \"store_id\" = 's1'", "PASS", "PASS"],
  ["a double-quoted tenant column in postgres", "postgres", "SELECT * FROM orders AS o WHERE \"o\".\"store_id\" = 's1'", "PASS", "PASS"],
  ["backticks in mysql", "mysql", "SELECT `amount` FROM `orders` WHERE `store_id` = 's1'", "PASS", "PASS"],
  ["an OR inside a parenthesised conjunct", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' AND (status = 'A' OR status = 'B')", "PASS", "PASS"],
  ["a backslash in a postgres string", "postgres", "SELECT * FROM orders WHERE store_id = 's1' AND note LIKE '%\\%'", "PASS", "PASS"],
  ["an E string with an escaped quote", "postgres", "SELECT * FROM orders WHERE store_id = 's1' AND note = E'it\\'s'", "PASS", "PASS"],
  ["a MySQL comment with a space", "mysql", "SELECT * FROM orders WHERE store_id = 's1' -- the store\n", "PASS", "PASS"],
  ["a hash comment in mysql", "mysql", "SELECT * FROM orders WHERE store_id = 's1' # the store\n", "PASS", "PASS"],
  ["a schema-qualified table", "postgres", "SELECT * FROM public.orders WHERE store_id = 's1'", "PASS", "PASS"],
  ["a trailing semicolon", "sqlite", "SELECT * FROM orders WHERE store_id = 's1';", "PASS", "PASS"],
  ["a window function", "postgres", "SELECT id, RANK() OVER (ORDER BY amount DESC) FROM orders WHERE store_id = 's1'", "PASS", "PASS"],
  ["count star", "mysql", "SELECT COUNT(*) FROM orders WHERE store_id = 's1' AND status = 'DELIVERED'", "PASS", "PASS"],
  ["a CASE expression", "sqlite", "SELECT CASE WHEN amount > 100 THEN 'big' ELSE 'small' END FROM orders WHERE store_id = 's1'", "PASS", "PASS"],
  ["a filter plus IS NOT NULL", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' AND store_id IS NOT NULL", "PASS", "PASS"],
  ["a correlated subquery filtered on its own alias", "sqlite", "SELECT o.id, (SELECT COUNT(*) FROM items i WHERE i.order_id = o.id AND i.store_id = 's1') FROM orders o WHERE o.store_id = 's1'", "PASS", "PASS"],
  ["EXPLAIN of a filtered SELECT (mysql)", "mysql", "EXPLAIN SELECT * FROM orders WHERE store_id = 's1'", "PASS", "PASS"],

  // Tenant bypasses: read-only, but TenantFilter fails.
  ["the tutorial's unfiltered query", "sqlite", "SELECT SUM(amount) AS total FROM orders WHERE status = 'DELIVERED'", "PASS", "FAIL"],
  ["OR 1=1 after the tenant predicate", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' OR 1=1", "PASS", "FAIL"],
  ["OR 1=1 after the tenant predicate (postgres)", "postgres", "SELECT * FROM orders WHERE store_id = 's1' AND status = 'A' OR 1=1", "PASS", "FAIL"],
  ["a UNION branch without the filter", "sqlite", "SELECT id FROM orders WHERE store_id = 's1' UNION ALL SELECT id FROM orders", "PASS", "FAIL"],
  ["an EXCEPT branch without the filter", "postgres", "SELECT id FROM orders EXCEPT SELECT id FROM orders WHERE store_id = 's1'", "PASS", "FAIL"],
  ["the filter only in a subquery", "sqlite", "SELECT SUM(amount) FROM orders WHERE id IN (SELECT id FROM orders WHERE store_id = 's1') OR 1=1", "PASS", "FAIL"],
  ["the filter only in an EXISTS subquery", "mysql", "SELECT SUM(amount) FROM orders WHERE EXISTS (SELECT 1 FROM orders o2 WHERE o2.store_id = 's1')", "PASS", "FAIL"],
  ["the filter only in the outer query", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' AND id IN (SELECT order_id FROM items)", "PASS", "FAIL"],
  ["an unfiltered CTE", "postgres", "WITH o AS (SELECT * FROM orders) SELECT * FROM o WHERE store_id = 's1'", "PASS", "FAIL"],
  ["an unfiltered derived table", "sqlite", "SELECT * FROM (SELECT * FROM orders) t WHERE t.store_id = 's1'", "PASS", "FAIL"],
  ["a filter under NOT", "sqlite", "SELECT * FROM orders WHERE NOT (store_id <> 's1')", "PASS", "FAIL"],
  ["a negated filter", "postgres", "SELECT * FROM orders WHERE NOT store_id = 's1'", "PASS", "FAIL"],
  ["a column compared with itself", "sqlite", "SELECT * FROM orders WHERE store_id = store_id", "PASS", "FAIL"],
  ["IS NOT NULL only", "mysql", "SELECT * FROM orders WHERE store_id IS NOT NULL", "PASS", "FAIL"],
  ["LIKE '%'", "sqlite", "SELECT * FROM orders WHERE store_id LIKE '%'", "PASS", "FAIL"],
  ["a comparison with another column", "postgres", "SELECT * FROM orders o JOIN stores s ON s.id = o.store_id WHERE o.store_id = s.store_id AND s.store_id = 's1'", "PASS", "FAIL"],
  ["a filter on a different alias", "sqlite", "SELECT * FROM orders o JOIN items i ON i.order_id = o.id WHERE i.store_id = 's1'", "PASS", "FAIL"],
  ["an unqualified filter in a join", "sqlite", "SELECT * FROM orders o JOIN items i ON i.order_id = o.id WHERE store_id = 's1'", "PASS", "FAIL"],
  ["another tenant's value", "sqlite", "SELECT * FROM orders WHERE store_id = 's2'", "PASS", "FAIL"],
  ["an IN list of two tenants", "mysql", "SELECT * FROM orders WHERE store_id IN ('s1', 's2')", "PASS", "FAIL"],
  ["a range instead of equality", "sqlite", "SELECT * FROM orders WHERE store_id >= 's1'", "PASS", "FAIL"],
  ["HAVING on the tenant key without GROUP BY", "sqlite", "SELECT SUM(amount) FROM orders HAVING store_id = 's1'", "PASS", "FAIL"],
  ["HAVING on a column that is not grouped", "mysql", "SELECT status, SUM(amount) FROM orders GROUP BY status HAVING store_id = 's1'", "PASS", "FAIL"],
  ["a LEFT JOIN filtering the left side only in ON", "sqlite", "SELECT * FROM orders o LEFT JOIN items i ON i.order_id = o.id AND o.store_id = 's1' AND i.store_id = 's1'", "PASS", "FAIL"],
  ["a FULL JOIN filtered only in ON", "postgres", "SELECT * FROM orders o FULL JOIN items i ON i.order_id = o.id AND o.store_id = 's1' AND i.store_id = 's1'", "PASS", "FAIL"],
  ["a double-quoted value is a column in sqlite", "sqlite", "SELECT * FROM orders WHERE store_id = \"s1\"", "PASS", "FAIL"],
  ["a double-quoted name is a string in mysql", "mysql", "SELECT * FROM orders WHERE \"store_id\" = 's1'", "PASS", "FAIL"],
  ["MySQL || is OR", "mysql", "SELECT * FROM orders WHERE store_id = 's1' || 1=1", "FAIL", "FAIL"],
  ["a MySQL executable comment", "mysql", "SELECT * FROM orders WHERE store_id = 's1' /*! OR 1=1 */", "FAIL", "FAIL"],
  ["a MySQL versioned executable comment", "mysql", "SELECT * FROM orders WHERE store_id = 's1' /*!50000 OR 1=1 */", "FAIL", "FAIL"],
  ["MySQL --1 is minus minus one", "mysql", "SELECT * FROM orders WHERE store_id = 's1' AND 1 --1\nOR 1=1", "FAIL", "FAIL"],
  ["a backslash ending a postgres string", "postgres", "SELECT * FROM orders WHERE store_id = 's1\\' OR 1=1 --'", "PASS", "FAIL"],
  ["a backslash ending a sqlite string", "sqlite", "SELECT * FROM orders WHERE store_id = 's1\\' OR 1=1 --'", "PASS", "FAIL"],
  ["a nested comment", "postgres", "SELECT * FROM orders /* /* */ WHERE store_id = 's1' */", "FAIL", "FAIL"],
  ["a second statement without the filter", "sqlite", "SELECT * FROM orders WHERE store_id = 's1'; SELECT * FROM orders", "FAIL", "FAIL"],

  // Writes, locks and side effects: ReadOnly fails.
  ["INSERT", "sqlite", "INSERT INTO orders (store_id, amount) VALUES ('s1', 10)", "FAIL", "FAIL"],
  ["INSERT ... SELECT", "mysql", "INSERT INTO archive SELECT * FROM orders WHERE store_id = 's1'", "FAIL", "FAIL"],
  ["an upsert", "sqlite", "INSERT INTO orders VALUES ('s1', 'X', 1) ON CONFLICT DO NOTHING", "FAIL", "FAIL"],
  ["INSERT ... ON DUPLICATE KEY UPDATE", "mysql", "INSERT INTO orders VALUES ('s1', 'X', 1) ON DUPLICATE KEY UPDATE amount = 2", "FAIL", "FAIL"],
  ["REPLACE", "mysql", "REPLACE INTO orders VALUES ('s1', 'X', 1)", "FAIL", "FAIL"],
  ["UPDATE with the filter", "postgres", "UPDATE orders SET amount = 0 WHERE store_id = 's1'", "FAIL", "PASS"],
  ["UPDATE without the filter", "sqlite", "UPDATE orders SET amount = 0", "FAIL", "FAIL"],
  ["DELETE with the filter", "sqlite", "DELETE FROM orders WHERE store_id = 's1'", "FAIL", "PASS"],
  ["DELETE without the filter", "mysql", "DELETE FROM orders", "FAIL", "FAIL"],
  ["MERGE", "postgres", "MERGE INTO orders o USING incoming i ON o.id = i.id WHEN MATCHED THEN DELETE", "FAIL", "FAIL"],
  ["DROP TABLE", "sqlite", "DROP TABLE orders", "FAIL", "FAIL"],
  ["CREATE TABLE AS", "postgres", "CREATE TABLE copy AS SELECT * FROM orders WHERE store_id = 's1'", "FAIL", "FAIL"],
  ["ALTER TABLE", "mysql", "ALTER TABLE orders ADD COLUMN x INT", "FAIL", "FAIL"],
  ["TRUNCATE", "postgres", "TRUNCATE orders", "FAIL", "FAIL"],
  ["a data-modifying CTE", "postgres", "WITH x AS (DELETE FROM orders WHERE store_id = 's1' RETURNING *) SELECT * FROM x", "FAIL", "PASS"],
  ["an unfiltered data-modifying CTE", "postgres", "WITH x AS (UPDATE orders SET amount = 0 RETURNING *) SELECT * FROM x", "FAIL", "FAIL"],
  ["SELECT INTO a new table", "postgres", "SELECT * INTO copy FROM orders WHERE store_id = 's1'", "FAIL", "PASS"],
  ["SELECT INTO a variable", "mysql", "SELECT amount INTO @a FROM orders WHERE store_id = 's1'", "FAIL", "PASS"],
  ["INTO OUTFILE", "mysql", "SELECT * FROM orders WHERE store_id = 's1' INTO OUTFILE '/tmp/o.csv'", "FAIL", "PASS"],
  ["INTO DUMPFILE", "mysql", "SELECT amount FROM orders WHERE store_id = 's1' INTO DUMPFILE '/tmp/o.bin'", "FAIL", "PASS"],
  ["FOR UPDATE (mysql)", "mysql", "SELECT * FROM orders WHERE store_id = 's1' FOR UPDATE", "FAIL", "PASS"],
  ["LOCK IN SHARE MODE", "mysql", "SELECT * FROM orders WHERE store_id = 's1' LOCK IN SHARE MODE", "FAIL", "PASS"],
  ["FOR SHARE (mysql)", "mysql", "SELECT * FROM orders WHERE store_id = 's1' FOR SHARE", "FAIL", "FAIL"],
  ["FOR UPDATE (postgres)", "postgres", "SELECT * FROM orders WHERE store_id = 's1' FOR UPDATE", "FAIL", "FAIL"],
  ["FOR NO KEY UPDATE", "postgres", "SELECT * FROM orders WHERE store_id = 's1' FOR NO KEY UPDATE", "FAIL", "FAIL"],
  ["FOR KEY SHARE", "postgres", "SELECT * FROM orders WHERE store_id = 's1' FOR KEY SHARE", "FAIL", "FAIL"],
  ["FOR UPDATE in sqlite", "sqlite", "SELECT * FROM orders WHERE store_id = 's1' FOR UPDATE", "FAIL", "PASS"],
  ["LOCK TABLE", "postgres", "LOCK TABLE orders", "FAIL", "FAIL"],
  ["LOCK TABLES", "mysql", "LOCK TABLES orders READ", "FAIL", "FAIL"],
  ["COPY", "postgres", "COPY orders TO '/tmp/orders.csv'", "FAIL", "FAIL"],
  ["CALL", "mysql", "CALL refresh_totals()", "FAIL", "PASS"],
  ["DO", "postgres", "DO $$ BEGIN DELETE FROM orders; END $$", "FAIL", "FAIL"],
  ["SET", "mysql", "SET @x = 1", "FAIL", "PASS"],
  ["SET a setting", "postgres", "SET search_path = evil", "FAIL", "PASS"],
  ["PRAGMA read", "sqlite", "PRAGMA table_info(orders)", "FAIL", "FAIL"],
  ["PRAGMA write", "sqlite", "PRAGMA writable_schema = 1", "FAIL", "FAIL"],
  ["ATTACH", "sqlite", "ATTACH DATABASE '/tmp/x.db' AS x", "FAIL", "PASS"],
  ["DETACH", "sqlite", "DETACH DATABASE x", "FAIL", "FAIL"],
  ["VACUUM", "sqlite", "VACUUM", "FAIL", "FAIL"],
  ["VACUUM INTO", "sqlite", "VACUUM INTO '/tmp/copy.db'", "FAIL", "FAIL"],
  ["EXPLAIN ANALYZE of a write", "postgres", "EXPLAIN ANALYZE DELETE FROM orders WHERE store_id = 's1'", "FAIL", "FAIL"],
  ["BEGIN", "postgres", "BEGIN", "FAIL", "PASS"],
  ["COMMIT", "mysql", "COMMIT", "FAIL", "PASS"],
  ["ROLLBACK", "sqlite", "ROLLBACK", "FAIL", "FAIL"],
  ["GRANT", "postgres", "GRANT SELECT ON orders TO public", "FAIL", "FAIL"],
  ["REVOKE", "postgres", "REVOKE SELECT ON orders FROM public", "FAIL", "FAIL"],
  ["a write after a read", "mysql", "SELECT * FROM orders WHERE store_id = 's1'; DROP TABLE orders", "FAIL", "FAIL"],
  ["pg_sleep", "postgres", "SELECT pg_sleep(10) FROM orders WHERE store_id = 's1'", "FAIL", "PASS"],
  ["schema-qualified pg_sleep", "postgres", "SELECT pg_catalog.pg_sleep(10)", "FAIL", "PASS"],
  ["pg_read_file", "postgres", "SELECT pg_read_file('/etc/passwd')", "FAIL", "PASS"],
  ["set_config", "postgres", "SELECT set_config('search_path', 'evil', false)", "FAIL", "PASS"],
  ["nextval", "postgres", "SELECT nextval('orders_id_seq')", "FAIL", "PASS"],
  ["dblink", "postgres", "SELECT * FROM orders WHERE store_id = 's1' AND id IN (SELECT dblink_exec('host=x', 'DROP TABLE t'))", "FAIL", "PASS"],
  ["sleep in a subquery", "mysql", "SELECT * FROM orders WHERE store_id = 's1' AND id = (SELECT SLEEP(5))", "FAIL", "PASS"],
  ["benchmark", "mysql", "SELECT BENCHMARK(1000000, MD5('x'))", "FAIL", "PASS"],
  ["load_file", "mysql", "SELECT LOAD_FILE('/etc/passwd')", "FAIL", "PASS"],
  ["load_extension", "sqlite", "SELECT load_extension('/tmp/evil.so')", "FAIL", "PASS"],
  ["writefile", "sqlite", "SELECT writefile('/tmp/x', amount) FROM orders WHERE store_id = 's1'", "FAIL", "PASS"],
  ["SQL the parser cannot read", "sqlite", "SELEC * FROM orders", "FAIL", "FAIL"],
];

function verdict(r: CheckResult | readonly CheckResult[]): string {
  const list = Array.isArray(r) ? r : [r as CheckResult];
  return list.some((x) => x.status === "FAIL") ? "FAIL" : "PASS";
}

describe("SQL rules corpus", () => {
  it("has at least 80 SQL strings over sqlite, postgres and mysql", () => {
    assert.ok(corpus.length >= 80);
    for (const d of ["sqlite", "postgres", "mysql"]) assert.ok(corpus.some((c) => c[1] === d));
  });
  for (const [name, dialect, sql, readOnly, tenant] of corpus) {
    it(`ReadOnly gives ${readOnly} and TenantFilter gives ${tenant} for ${name} (${dialect})`, async () => {
      const trace = Trace.simple("q", { sql });
      const ro = await new ReadOnly({ dialect }).run(trace);
      const tf = await new TenantFilter("store_id", { value: "s1", dialect }).run(trace);
      assert.deepEqual([verdict(ro), verdict(tf)], [readOnly, tenant], JSON.stringify([ro, tf]));
    });
  }
});

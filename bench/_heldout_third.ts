/**
 * A third held-out-style batch, written after the second batch's fixes and
 * measured once, without changing the search for it: comparisons of two
 * columns, arithmetic on a column, constants inside CASE, a filter true
 * today, scalar subqueries for a tenant, COALESCE around a NULL.
 *
 * @module
 */
import { type HeldoutInstance, ins } from "./_heldout_types.ts";
import * as m from "./_heldout_music.ts";
import * as s from "./_heldout_school.ts";
import * as p from "./_heldout_shop.ts";

type Pair = Omit<HeldoutInstance, "batch" | "proof"> & { readonly proof: string };

function music(): Pair[] {
  const base = (proof: string) => `${m.M_BASE};\n${proof}`;
  return [
    {
      db: "music",
      cls: "other",
      family: "a line-price filter true today, dropped",
      reference:
        "SELECT count(*) AS n FROM invoice_line il JOIN track t ON t.track_id = il.track_id WHERE il.unit_price >= t.unit_price",
      equivalent:
        "SELECT count(*) AS n FROM invoice_line il JOIN track t ON t.track_id = il.track_id WHERE NOT (il.unit_price < t.unit_price)",
      nearMiss:
        "SELECT count(*) AS n FROM invoice_line il JOIN track t ON t.track_id = il.track_id",
      proof: base(`${m.track(1)};\n${m.invoice(1)};\n${m.line(1, { unit_price: 0.5 })}`),
    },
    {
      db: "music",
      cls: "boundary",
      family: ">= for > between two columns",
      reference:
        "SELECT e.last_name FROM employee e JOIN employee b ON b.employee_id = e.reports_to WHERE e.hire_date > b.hire_date",
      equivalent:
        "SELECT e.last_name FROM employee e WHERE EXISTS (SELECT 1 FROM employee b WHERE b.employee_id = e.reports_to AND b.hire_date < e.hire_date)",
      nearMiss:
        "SELECT e.last_name FROM employee e JOIN employee b ON b.employee_id = e.reports_to WHERE e.hire_date >= b.hire_date",
      proof: base(
        `UPDATE employee SET hire_date = '2004-01-01' WHERE employee_id = 3;\n${
          ins("employee", {
            employee_id: 9,
            last_name: "N",
            first_name: "N",
            reports_to: 3,
            hire_date: "2004-01-01",
          })
        }`,
      ),
    },
    {
      db: "music",
      cls: "boundary",
      family: "> for >= on a HAVING sum of a product",
      reference:
        "SELECT invoice_id FROM invoice_line GROUP BY invoice_id HAVING sum(unit_price * quantity) >= 6",
      equivalent:
        "SELECT invoice_id FROM invoice_line GROUP BY invoice_id HAVING NOT (sum(unit_price * quantity) < 6)",
      nearMiss:
        "SELECT invoice_id FROM invoice_line GROUP BY invoice_id HAVING sum(unit_price * quantity) > 6",
      proof: base(`${m.track(1)};\n${m.invoice(1)};\n${m.line(1, { unit_price: 2, quantity: 3 })}`),
    },
    {
      db: "music",
      cls: "boundary",
      family: ">= for > inside CASE",
      reference:
        "SELECT sum(CASE WHEN milliseconds > 300000 THEN 1 ELSE 0 END) AS long FROM track WHERE genre_id = 1",
      equivalent:
        "SELECT sum(iif(milliseconds > 300000, 1, 0)) AS long FROM track WHERE genre_id = 1",
      nearMiss:
        "SELECT sum(CASE WHEN milliseconds >= 300000 THEN 1 ELSE 0 END) AS long FROM track WHERE genre_id = 1",
      proof: base(m.track(1, { milliseconds: 300000 })),
    },
    {
      db: "music",
      cls: "second value",
      family: "the support rep's title dropped",
      reference:
        "SELECT count(*) AS n FROM customer c JOIN employee e ON e.employee_id = c.support_rep_id WHERE e.title = 'Sales Support Agent' AND c.country = 'Chile'",
      equivalent:
        "SELECT count(*) AS n FROM customer c WHERE c.country = 'Chile' AND c.support_rep_id IN (SELECT employee_id FROM employee WHERE title = 'Sales Support Agent')",
      nearMiss: "SELECT count(*) AS n FROM customer c WHERE c.country = 'Chile'",
      proof: base(m.customer(2, { country: "Chile" })),
    },
  ];
}

function school(): Pair[] {
  const base = (proof: string) => `${s.BASE};\n${proof}`;
  return [
    {
      db: "school",
      cls: "boundary",
      family: "a scaled GPA's > for >=",
      reference: "SELECT name FROM student WHERE gpa * 10 >= 35",
      equivalent: "SELECT name FROM student WHERE 10 * gpa >= 35",
      nearMiss: "SELECT name FROM student WHERE gpa > 3.5",
      proof: base(s.student(2, { gpa: 3.5 })),
    },
    {
      db: "school",
      cls: "boundary",
      family: "> for >= on a salary under a date filter",
      reference:
        "SELECT t.name FROM teacher t JOIN department d ON d.dept_id = t.dept_id WHERE t.hired < '2010-01-01' AND t.salary >= 70000",
      equivalent:
        "SELECT t.name FROM teacher t WHERE t.dept_id IN (SELECT dept_id FROM department) AND NOT (t.salary < 70000) AND t.hired < '2010-01-01'",
      nearMiss:
        "SELECT t.name FROM teacher t JOIN department d ON d.dept_id = t.dept_id WHERE t.hired < '2010-01-01' AND t.salary > 70000",
      proof: base(s.teacher(2, { salary: 70000, hired: "2008-01-01" })),
    },
    {
      db: "school",
      cls: "boundary",
      family: "> for >= inside NOT IN",
      reference:
        "SELECT d.name FROM department d WHERE d.dept_id NOT IN (SELECT t.dept_id FROM teacher t WHERE t.salary > 85000)",
      equivalent:
        "SELECT d.name FROM department d WHERE NOT EXISTS (SELECT 1 FROM teacher t WHERE t.dept_id = d.dept_id AND t.salary > 85000)",
      nearMiss:
        "SELECT d.name FROM department d WHERE d.dept_id NOT IN (SELECT t.dept_id FROM teacher t WHERE t.salary >= 85000)",
      proof: base(s.teacher(2, { salary: 85000 })),
    },
    {
      db: "school",
      cls: "null",
      family: "the NULL advisors dropped",
      reference:
        "SELECT count(*) AS n FROM student WHERE advisor_id IN (SELECT teacher_id FROM teacher WHERE dept_id = 2) OR advisor_id IS NULL",
      equivalent:
        "SELECT count(*) AS n FROM student s WHERE s.advisor_id IS NULL OR EXISTS (SELECT 1 FROM teacher t WHERE t.teacher_id = s.advisor_id AND t.dept_id = 2)",
      nearMiss:
        "SELECT count(*) AS n FROM student WHERE advisor_id IN (SELECT teacher_id FROM teacher WHERE dept_id = 2)",
      proof: base(s.student(2, { advisor_id: null })),
    },
  ];
}

function shop(): Pair[] {
  return [
    {
      db: "shop",
      cls: "boundary",
      family: ">= for > between two timestamps",
      reference: "SELECT count(*) AS n FROM orders WHERE shipped_at > created_at",
      equivalent: "SELECT count(*) AS n FROM orders WHERE created_at < shipped_at",
      nearMiss: "SELECT count(*) AS n FROM orders WHERE shipped_at >= created_at",
      proof: p.order(1, { shipped_at: "2024-05-05 10:11:00" }),
    },
    {
      db: "shop",
      cls: "second value",
      family: "a tenant's subquery dropped",
      reference:
        "SELECT name FROM product WHERE store_id IN (SELECT store_id FROM store WHERE name = 'Main') AND stock < 10",
      equivalent:
        "SELECT p.name FROM product p JOIN store s ON s.store_id = p.store_id WHERE s.name = 'Main' AND p.stock < 10",
      nearMiss: "SELECT name FROM product WHERE stock < 10",
      proof: `${p.STORES};\n${p.product(1, { store_id: 2, stock: 3 })}`,
    },
    {
      db: "shop",
      cls: "boundary",
      family: "> for >= on a line's amount",
      reference: "SELECT order_id FROM order_item WHERE qty * unit_price >= 100",
      equivalent: "SELECT order_id FROM order_item WHERE NOT (qty * unit_price < 100)",
      nearMiss: "SELECT order_id FROM order_item WHERE qty * unit_price > 100",
      proof: p.item(1, 1, { qty: 4, unit_price: 25 }),
    },
    {
      db: "shop",
      cls: "null",
      family: "COALESCE's default on the wrong side",
      reference: "SELECT count(*) AS n FROM product WHERE category = 'toys'",
      equivalent: "SELECT count(*) AS n FROM product WHERE coalesce(category, 'none') = 'toys'",
      nearMiss: "SELECT count(*) AS n FROM product WHERE coalesce(category, 'toys') = 'toys'",
      proof: p.product(1, { category: null }),
    },
    {
      db: "shop",
      cls: "null",
      family: "NOT IN for an unmatched LEFT JOIN",
      reference:
        "SELECT count(*) AS n FROM orders o LEFT JOIN customer c ON c.customer_id = o.customer_id WHERE c.customer_id IS NULL",
      equivalent:
        "SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customer c WHERE c.customer_id = o.customer_id)",
      nearMiss:
        "SELECT count(*) AS n FROM orders WHERE customer_id NOT IN (SELECT customer_id FROM customer)",
      proof: `${p.customer(1)};\n${p.order(1, { customer_id: null })}`,
    },
    {
      db: "shop_big",
      cls: "second value",
      family: "missing tenant filter on refunds, large tables",
      reference:
        "SELECT count(*) AS n FROM refund r JOIN orders o ON o.order_id = r.order_id WHERE o.store_id = 1 AND r.reason = 'late'",
      equivalent:
        "SELECT count(*) AS n FROM refund r WHERE r.reason = 'late' AND r.order_id IN (SELECT order_id FROM orders WHERE store_id = 1)",
      nearMiss: "SELECT count(*) AS n FROM refund r WHERE r.reason = 'late'",
      proof: `${p.order(1, { store_id: 2 })};\n${
        ins("refund", { refund_id: 1, order_id: 1, amount: 1, reason: "late" })
      }`,
    },
    {
      db: "shop_big",
      cls: "boundary",
      family: "a range for LIKE on a month, large tables",
      reference:
        "SELECT count(*) AS n FROM orders WHERE created_at LIKE '2025-01%' AND status = 'paid'",
      equivalent:
        "SELECT count(*) AS n FROM orders WHERE substr(created_at, 1, 7) = '2025-01' AND status = 'paid'",
      nearMiss:
        "SELECT count(*) AS n FROM orders WHERE created_at >= '2025-01-01' AND created_at < '2025-02-01' AND status = 'paid'",
      proof: p.order(1, { created_at: "2025-01" }),
    },
  ];
}

/** The third batch. */
export function thirdPairs(): HeldoutInstance[] {
  return [...music(), ...school(), ...shop()].map((i) => ({ ...i, batch: 3 as const }));
}

/**
 * A second held-out-style batch, written after the search's targeted
 * candidates and measured once, without changing the search for it: the
 * same kinds of mistake in other shapes (date ranges in joins, HAVING sums,
 * filters in ON or WHERE, a NULL outside NOT IN, UNION inside FROM, count
 * DISTINCT, a tenant filter reached through another table).
 *
 * @module
 */
import { type HeldoutInstance, ins } from "./_heldout_types.ts";
import * as m from "./_heldout_music.ts";
import * as s from "./_heldout_school.ts";
import * as p from "./_heldout_shop.ts";

function music(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db" | "batch">): void => {
    out.push({ db: "music", batch: 2, ...i, proof: `${m.M_BASE};\n${i.proof}` });
  };
  for (const [x, month] of [["Brazil", "03"], ["Canada", "07"], ["France", "11"]] as const) {
    add({
      cls: "boundary",
      family: "BETWEEN the last day for a month, in a join",
      reference:
        `SELECT c.email FROM customer c JOIN invoice i ON i.customer_id = c.customer_id WHERE i.invoice_date >= '2023-${month}-01' AND i.invoice_date < date('2023-${month}-01', '+1 month') AND c.country = '${x}'`,
      equivalent:
        `SELECT c.email FROM invoice i JOIN customer c ON c.customer_id = i.customer_id WHERE c.country = '${x}' AND NOT (i.invoice_date < '2023-${month}-01') AND i.invoice_date < date('2023-${month}-01', '+1 month')`,
      nearMiss:
        `SELECT c.email FROM customer c JOIN invoice i ON i.customer_id = c.customer_id WHERE i.invoice_date BETWEEN '2023-${month}-01' AND date('2023-${month}-01', '+1 month', '-1 day') AND c.country = '${x}'`,
      proof: `${m.customer(2, { country: x })};\n${
        m.invoice(1, {
          customer_id: 2,
          invoice_date: month === "11" ? "2023-11-30 00:00:00" : `2023-${month}-31 00:00:00`,
        })
      }`,
    });
  }
  for (const c of [30, 40]) {
    add({
      cls: "boundary",
      family: "> for >= on a HAVING sum",
      reference: `SELECT customer_id FROM invoice GROUP BY customer_id HAVING sum(total) >= ${c}`,
      equivalent:
        `SELECT customer_id FROM (SELECT customer_id, sum(total) AS s FROM invoice GROUP BY customer_id) WHERE s >= ${c}`,
      nearMiss: `SELECT customer_id FROM invoice GROUP BY customer_id HAVING sum(total) > ${c}`,
      proof: m.invoice(1, { total: c }),
    });
  }
  add({
    cls: "duplicate",
    family: "the artist's name for its key",
    reference:
      "SELECT t.name FROM track t JOIN album al ON al.album_id = t.album_id WHERE al.artist_id = 5 AND t.unit_price > 1",
    equivalent:
      "SELECT t.name FROM track t WHERE t.unit_price > 1 AND t.album_id IN (SELECT album_id FROM album WHERE artist_id = 5)",
    nearMiss:
      "SELECT t.name FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id WHERE ar.name = 'Artist 5' AND t.unit_price > 1",
    proof: `${ins("artist", { artist_id: 6, name: "Artist 5" })};\n${
      ins("album", { album_id: 2, title: "X", artist_id: 6 })
    };\n${m.track(1, { album_id: 2, unit_price: 1.99 })}`,
  });
  add({
    cls: "null",
    family: "NOT IN with a NULL outside",
    reference:
      "SELECT count(*) AS n FROM track t WHERE NOT EXISTS (SELECT 1 FROM genre g WHERE g.genre_id = t.genre_id AND g.name LIKE 'R%')",
    equivalent:
      "SELECT count(*) AS n FROM track t WHERE t.genre_id IS NULL OR t.genre_id NOT IN (SELECT genre_id FROM genre WHERE name LIKE 'R%')",
    nearMiss:
      "SELECT count(*) AS n FROM track t WHERE t.genre_id NOT IN (SELECT genre_id FROM genre WHERE name LIKE 'R%')",
    proof: m.track(1, { genre_id: null }),
  });
  add({
    cls: "duplicate",
    family: "COUNT for COUNT(DISTINCT)",
    reference: "SELECT count(DISTINCT customer_id) AS n FROM invoice WHERE total > 11",
    equivalent:
      "SELECT count(*) AS n FROM (SELECT DISTINCT customer_id FROM invoice WHERE total > 11)",
    nearMiss: "SELECT count(customer_id) AS n FROM invoice WHERE total > 11",
    proof: `${m.invoice(1, { total: 12 })};\n${m.invoice(2, { total: 13 })}`,
  });
  add({
    cls: "other",
    family: "a LEFT JOIN's filter in WHERE for ON",
    reference:
      "SELECT ar.name, count(al.album_id) AS n FROM artist ar LEFT JOIN album al ON al.artist_id = ar.artist_id AND al.released > 1960 GROUP BY ar.artist_id",
    equivalent:
      "SELECT ar.name, (SELECT count(*) FROM album al WHERE al.artist_id = ar.artist_id AND al.released > 1960) AS n FROM artist ar",
    nearMiss:
      "SELECT ar.name, count(al.album_id) AS n FROM artist ar LEFT JOIN album al ON al.artist_id = ar.artist_id WHERE al.released > 1960 GROUP BY ar.artist_id",
    proof: ins("artist", { artist_id: 2, name: "B" }),
  });
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION inside FROM",
    reference:
      "SELECT count(*) AS n FROM (SELECT customer_id FROM invoice WHERE total > 11 UNION SELECT customer_id FROM customer WHERE country = 'Norway')",
    equivalent:
      "SELECT count(*) AS n FROM customer c WHERE c.country = 'Norway' OR EXISTS (SELECT 1 FROM invoice i WHERE i.customer_id = c.customer_id AND i.total > 11)",
    nearMiss:
      "SELECT count(*) AS n FROM (SELECT customer_id FROM invoice WHERE total > 11 UNION ALL SELECT customer_id FROM customer WHERE country = 'Norway')",
    proof: `${m.customer(2, { country: "Norway" })};\n${
      m.invoice(1, { customer_id: 2, total: 12 })
    }`,
  });
  return out;
}

function school(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db" | "batch">): void => {
    out.push({ db: "school", batch: 2, ...i, proof: `${s.BASE};\n${i.proof}` });
  };
  for (const [a, b] of [[60, 70], [80, 90]] as const) {
    add({
      cls: "boundary",
      family: "< and > for BETWEEN",
      reference: `SELECT count(*) AS n FROM enrollment WHERE grade BETWEEN ${a} AND ${b}`,
      equivalent: `SELECT count(*) AS n FROM enrollment WHERE grade >= ${a} AND grade <= ${b}`,
      nearMiss: `SELECT count(*) AS n FROM enrollment WHERE grade > ${a} AND grade < ${b}`,
      proof: s.enroll(1, { grade: b }),
    });
  }
  add({
    cls: "second value",
    family: "department ids for the building",
    reference:
      "SELECT t.name FROM teacher t JOIN department d ON d.dept_id = t.dept_id WHERE d.building = 'North' AND t.salary > 60000",
    equivalent:
      "SELECT t.name FROM teacher t WHERE t.salary > 60000 AND t.dept_id IN (SELECT dept_id FROM department WHERE building = 'North')",
    nearMiss: "SELECT t.name FROM teacher t WHERE t.dept_id IN (1, 2) AND t.salary > 60000",
    proof: `${ins("department", { dept_id: 2, name: "Other", building: "South" })};\n${
      s.teacher(2, { dept_id: 2, salary: 70250 })
    }`,
  });
  add({
    cls: "boundary",
    family: "<= for < inside NOT IN, over courses",
    reference:
      "SELECT count(*) AS n FROM course c WHERE c.course_id NOT IN (SELECT e.course_id FROM enrollment e WHERE e.grade < 45)",
    // (not NOT EXISTS: course_id is a TEXT primary key, which SQLite lets be NULL)
    equivalent:
      "SELECT count(*) AS n FROM course c WHERE c.course_id NOT IN (SELECT e.course_id FROM enrollment e WHERE 45 > e.grade)",
    nearMiss:
      "SELECT count(*) AS n FROM course c WHERE c.course_id NOT IN (SELECT e.course_id FROM enrollment e WHERE e.grade <= 45)",
    proof: s.enroll(1, { grade: 45 }),
  });
  add({
    cls: "null",
    family: "sum/count(*) for AVG over joins",
    reference:
      "SELECT d.name, round(avg(st.gpa), 2) AS g FROM student st JOIN teacher t ON t.teacher_id = st.advisor_id JOIN department d ON d.dept_id = t.dept_id GROUP BY d.dept_id",
    equivalent:
      "SELECT d.name, round(sum(st.gpa) / count(st.gpa), 2) AS g FROM department d JOIN teacher t ON t.dept_id = d.dept_id JOIN student st ON st.advisor_id = t.teacher_id GROUP BY d.dept_id",
    nearMiss:
      "SELECT d.name, round(sum(st.gpa) / count(*), 2) AS g FROM student st JOIN teacher t ON t.teacher_id = st.advisor_id JOIN department d ON d.dept_id = t.dept_id GROUP BY d.dept_id",
    proof: s.student(2, { gpa: null }),
  });
  add({
    cls: "duplicate",
    family: "GROUP BY the advisor's name for the key",
    reference:
      "SELECT t.name, round(avg(st.gpa), 2) AS g FROM student st JOIN teacher t ON t.teacher_id = st.advisor_id WHERE st.year = 1 GROUP BY t.teacher_id",
    equivalent:
      "SELECT t.name, round(avg(st.gpa), 2) AS g FROM teacher t JOIN student st ON st.advisor_id = t.teacher_id WHERE 1 = st.year GROUP BY st.advisor_id",
    nearMiss:
      "SELECT t.name, round(avg(st.gpa), 2) AS g FROM student st JOIN teacher t ON t.teacher_id = st.advisor_id WHERE st.year = 1 GROUP BY t.name",
    proof: `${s.teacher(2, { name: "T1" })};\n${
      s.student(2, { year: 1, advisor_id: 2, gpa: 2.01 })
    }`,
  });
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION of a UNIQUE nullable column",
    reference:
      "SELECT email FROM student WHERE year = 1 AND gpa > 3.9 UNION SELECT email FROM student WHERE year = 2 AND gpa < 2.1",
    equivalent:
      "SELECT DISTINCT email FROM student WHERE (year = 2 AND gpa < 2.1) OR (year = 1 AND gpa > 3.9)",
    nearMiss:
      "SELECT email FROM student WHERE year = 1 AND gpa > 3.9 UNION ALL SELECT email FROM student WHERE year = 2 AND gpa < 2.1",
    proof: `${s.student(2, { year: 1, gpa: 3.95, email: null })};\n${
      s.student(3, { year: 2, gpa: 2.05, email: null })
    }`,
  });
  add({
    cls: "boundary",
    family: "> for >= on a count in one term",
    reference:
      "SELECT c.course_id FROM course c JOIN enrollment e ON e.course_id = c.course_id WHERE e.term = '2025S' GROUP BY c.course_id HAVING count(*) >= 25",
    equivalent:
      "SELECT course_id FROM enrollment WHERE term = '2025S' GROUP BY course_id HAVING count(*) > 24",
    nearMiss:
      "SELECT c.course_id FROM course c JOIN enrollment e ON e.course_id = c.course_id WHERE e.term = '2025S' GROUP BY c.course_id HAVING count(*) > 25",
    proof: Array.from(
      { length: 25 },
      (_, i) => `${s.student(10 + i)};\n${s.enroll(10 + i, { term: "2025S" })}`,
    )
      .join(";\n"),
  });
  return out;
}

function shop(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "batch">): void => {
    out.push({ batch: 2, ...i });
  };
  add({
    db: "shop",
    cls: "second value",
    family: "missing tenant filter on refunds",
    reference:
      "SELECT round(sum(r.amount), 2) AS s FROM refund r JOIN orders o ON o.order_id = r.order_id WHERE o.store_id = 1",
    equivalent:
      "SELECT round(sum(amount), 2) AS s FROM refund WHERE order_id IN (SELECT order_id FROM orders WHERE store_id = 1)",
    nearMiss: "SELECT round(sum(amount), 2) AS s FROM refund",
    proof: `${p.order(1, { store_id: 2 })};\n${
      ins("refund", { refund_id: 1, order_id: 1, amount: 5 })
    }`,
  });
  add({
    db: "shop",
    cls: "second value",
    family: "the customer's store for the order's, counted distinct",
    reference:
      "SELECT count(DISTINCT o.customer_id) AS n FROM orders o WHERE o.store_id = 1 AND o.status = 'delivered'",
    equivalent:
      "SELECT count(*) AS n FROM (SELECT DISTINCT customer_id FROM orders WHERE status = 'delivered' AND store_id = 1 AND customer_id IS NOT NULL)",
    nearMiss:
      "SELECT count(DISTINCT o.customer_id) AS n FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE c.store_id = 1 AND o.status = 'delivered'",
    proof: `${p.customer(1, { store_id: 2 })};\n${p.order(1, { status: "delivered" })}`,
  });
  add({
    db: "shop",
    cls: "boundary",
    family: "> for >= on a HAVING sum of a product",
    reference:
      "SELECT o.order_id FROM orders o JOIN order_item i ON i.order_id = o.order_id GROUP BY o.order_id HAVING sum(i.qty * i.unit_price) >= 100",
    equivalent:
      "SELECT order_id FROM order_item GROUP BY order_id HAVING NOT (sum(qty * unit_price) < 100) AND order_id IN (SELECT order_id FROM orders)",
    nearMiss:
      "SELECT o.order_id FROM orders o JOIN order_item i ON i.order_id = o.order_id GROUP BY o.order_id HAVING sum(i.qty * i.unit_price) > 100",
    proof: `${p.order(1)};\n${p.item(1, 1, { qty: 4, unit_price: 25 })}`,
  });
  add({
    db: "shop",
    cls: "null",
    family: "NOT IN with a NULL outside",
    reference:
      "SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customer c WHERE c.customer_id = o.customer_id AND c.vip = 1)",
    equivalent:
      "SELECT count(*) AS n FROM orders o LEFT JOIN customer c ON c.customer_id = o.customer_id AND c.vip = 1 WHERE c.customer_id IS NULL",
    nearMiss:
      "SELECT count(*) AS n FROM orders o WHERE o.customer_id NOT IN (SELECT customer_id FROM customer WHERE vip = 1)",
    proof: `${p.customer(1, { vip: 1 })};\n${p.order(1, { customer_id: null })}`,
  });
  add({
    db: "shop",
    cls: "second value",
    family: "shipped_at for the status, negated",
    reference: "SELECT count(*) AS n FROM orders WHERE status <> 'paid'",
    equivalent: "SELECT count(*) AS n FROM orders WHERE NOT (status = 'paid')",
    nearMiss: "SELECT count(*) AS n FROM orders WHERE shipped_at IS NOT NULL",
    proof: p.order(1, { status: "shipped", shipped_at: null }),
  });
  add({
    db: "shop",
    cls: "other",
    family: "substr for LIKE",
    reference: "SELECT count(*) AS n FROM product WHERE sku LIKE 'P-0%'",
    equivalent: "SELECT count(*) AS n FROM product WHERE upper(substr(sku, 1, 3)) = 'P-0'",
    nearMiss: "SELECT count(*) AS n FROM product WHERE substr(sku, 1, 3) = 'P-0'",
    proof: p.product(1, { sku: "p-001" }),
  });
  add({
    db: "shop_big",
    cls: "boundary",
    family: "> for >= among filters, large tables",
    reference:
      "SELECT count(*) AS n FROM orders o JOIN order_item i ON i.order_id = o.order_id WHERE o.status = 'paid' AND i.unit_price >= 100 AND i.qty >= 2",
    equivalent:
      "SELECT count(*) AS n FROM order_item i WHERE i.qty >= 2 AND NOT (i.unit_price < 100) AND i.order_id IN (SELECT order_id FROM orders WHERE status = 'paid')",
    nearMiss:
      "SELECT count(*) AS n FROM orders o JOIN order_item i ON i.order_id = o.order_id WHERE o.status = 'paid' AND i.unit_price > 100 AND i.qty >= 2",
    proof: `${p.order(1)};\n${p.item(1, 1, { unit_price: 100, qty: 2 })}`,
  });
  add({
    db: "shop_big",
    cls: "second value",
    family: "missing tenant filter, large tables",
    reference:
      "SELECT count(*) AS n FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.store_id = 1 AND p.category = 'toys'",
    equivalent:
      "SELECT count(*) AS n FROM order_item WHERE product_id IN (SELECT product_id FROM product WHERE category = 'toys' AND store_id = 1)",
    nearMiss:
      "SELECT count(*) AS n FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.category = 'toys'",
    proof: `${p.product(1, { store_id: 2 })};\n${p.item(1, 1)}`,
  });
  add({
    db: "shop_big",
    cls: "duplicate",
    family: "UNION ALL for UNION of ranges, large tables",
    reference:
      "SELECT o.customer_id FROM orders o WHERE o.order_id BETWEEN 1000 AND 1010 UNION SELECT o.customer_id FROM orders o WHERE o.order_id BETWEEN 250000 AND 250010",
    equivalent:
      "SELECT DISTINCT customer_id FROM orders WHERE order_id BETWEEN 250000 AND 250010 OR order_id BETWEEN 1000 AND 1010",
    nearMiss:
      "SELECT o.customer_id FROM orders o WHERE o.order_id BETWEEN 1000 AND 1010 UNION ALL SELECT o.customer_id FROM orders o WHERE o.order_id BETWEEN 250000 AND 250010",
    proof: `${p.order(1000)};\n${p.order(250000)}`,
  });
  add({
    db: "shop_big",
    cls: "boundary",
    family: "<= for < inside NOT IN, large tables",
    reference:
      "SELECT count(*) AS n FROM product p WHERE p.product_id NOT IN (SELECT i.product_id FROM order_item i WHERE i.order_id < 10)",
    equivalent:
      "SELECT count(*) AS n FROM product p WHERE NOT EXISTS (SELECT 1 FROM order_item i WHERE i.product_id = p.product_id AND i.order_id < 10)",
    nearMiss:
      "SELECT count(*) AS n FROM product p WHERE p.product_id NOT IN (SELECT i.product_id FROM order_item i WHERE i.order_id <= 10)",
    proof: `${p.product(1)};\n${p.order(10)};\n${p.item(10, 1)}`,
  });
  return out;
}

/** The second batch. */
export function freshPairs(): HeldoutInstance[] {
  return [...music(), ...school(), ...shop()];
}

/**
 * The harder held-out-style pairs: the same kinds of mistake inside the
 * queries agents write for real questions, with two to four joins, several
 * filters at once, correlated counts and subqueries that join. A database
 * that tells them apart must meet every other condition of the query too.
 *
 * @module
 */
import { type HeldoutInstance, ins } from "./_heldout_types.ts";
import * as m from "./_heldout_music.ts";
import * as s from "./_heldout_school.ts";
import * as p from "./_heldout_shop.ts";

function musicHard(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db: "music", ...i, proof: `${m.M_BASE};\n${i.proof}` });
  };
  const album = ins("album", { album_id: 2, title: "New", artist_id: 1, released: 2015 });
  for (const [g, c, y] of [[2, 420000, 1990], [3, 300000, 2000], [1, 240000, 1980]] as const) {
    const q = (op: string) =>
      `SELECT ar.name FROM artist ar JOIN album al ON al.artist_id = ar.artist_id JOIN track t ON t.album_id = al.album_id WHERE t.genre_id = ${g} AND t.milliseconds ${op} ${c} AND al.released > ${y} GROUP BY ar.artist_id HAVING count(*) >= 2`;
    add({
      cls: "boundary",
      family: "> for >= under a HAVING, three tables",
      reference: q(">="),
      equivalent:
        `SELECT name FROM artist WHERE artist_id IN (SELECT al.artist_id FROM album al JOIN track t ON t.album_id = al.album_id WHERE al.released > ${y} AND t.genre_id = ${g} AND NOT (t.milliseconds < ${c}) GROUP BY al.artist_id HAVING count(t.track_id) > 1)`,
      nearMiss: q(">"),
      proof: `${album};\n${
        ins("genre", { genre_id: g, name: "G" }).replace("INSERT", "INSERT OR IGNORE")
      };\n${m.track(1, { album_id: 2, genre_id: g, milliseconds: c })};\n${
        m.track(2, { album_id: 2, genre_id: g, milliseconds: c + 1000 })
      }`,
    });
  }
  for (const [k, op, near] of [[13, "<=", "<"], [15, "<=", "<"], [14, ">=", ">"]] as const) {
    const q = (o: string) =>
      `SELECT c.email FROM customer c WHERE (SELECT count(*) FROM invoice i WHERE i.customer_id = c.customer_id) ${o} ${k}`;
    add({
      cls: "boundary",
      family: "a correlated count at the boundary",
      reference: q(op),
      equivalent:
        `SELECT c.email FROM customer c LEFT JOIN invoice i ON i.customer_id = c.customer_id GROUP BY c.customer_id HAVING count(i.invoice_id) ${op} ${k}`,
      nearMiss: q(near),
      proof: Array.from({ length: k }, (_, i) => m.invoice(i + 1)).join(";\n"),
    });
  }
  for (const [r, c, y] of [[3, 10, 2023], [4, 5, 2022], [5, 15, 2024]] as const) {
    const q = (op: string) =>
      `SELECT i.invoice_id FROM invoice i JOIN customer c ON c.customer_id = i.customer_id WHERE c.support_rep_id = ${r} AND i.total ${op} ${c} AND i.invoice_date LIKE '${y}%'`;
    add({
      cls: "boundary",
      family: "> for >= among three filters",
      reference: q(">="),
      equivalent:
        `SELECT invoice_id FROM invoice WHERE invoice_date LIKE '${y}%' AND ${c} <= total AND customer_id IN (SELECT customer_id FROM customer WHERE support_rep_id = ${r})`,
      nearMiss: q(">"),
      proof: `${
        ins("employee", { employee_id: r, last_name: "R", first_name: "R" }).replace(
          "INSERT",
          "INSERT OR IGNORE",
        )
      };\n${m.customer(2, { support_rep_id: r })};\n${
        m.invoice(1, { customer_id: 2, total: c, invoice_date: `${y}-05-05 00:00:00` })
      }`,
    });
  }
  for (const y of [2010, 2000, 1990]) {
    add({
      cls: "null",
      family: "NOT EXISTS for NOT IN over a join",
      reference:
        `SELECT g.name FROM genre g WHERE g.genre_id NOT IN (SELECT t.genre_id FROM track t JOIN album al ON al.album_id = t.album_id WHERE al.released > ${y})`,
      equivalent:
        `SELECT g.name FROM genre g WHERE NOT EXISTS (SELECT 1 FROM track t JOIN album al ON al.album_id = t.album_id WHERE al.released > ${y} AND (t.genre_id = g.genre_id OR t.genre_id IS NULL))`,
      nearMiss:
        `SELECT g.name FROM genre g WHERE NOT EXISTS (SELECT 1 FROM track t JOIN album al ON al.album_id = t.album_id WHERE al.released > ${y} AND t.genre_id = g.genre_id)`,
      proof: `${album};\n${m.track(1, { album_id: 2, genre_id: null })}`,
    });
  }
  for (const x of ["Canada", "Norway", "Chile"]) {
    add({
      cls: "null",
      family: "NOT IN for NOT EXISTS with a filter",
      reference:
        `SELECT e.last_name FROM employee e WHERE NOT EXISTS (SELECT 1 FROM customer c WHERE c.support_rep_id = e.employee_id AND c.country = '${x}')`,
      equivalent:
        `SELECT e.last_name FROM employee e LEFT JOIN customer c ON c.support_rep_id = e.employee_id AND c.country = '${x}' GROUP BY e.employee_id HAVING count(c.customer_id) = 0`,
      nearMiss:
        `SELECT e.last_name FROM employee e WHERE e.employee_id NOT IN (SELECT c.support_rep_id FROM customer c WHERE c.country = '${x}')`,
      proof: m.customer(2, { country: x, support_rep_id: null }),
    });
  }
  for (const c of [20, 15]) {
    add({
      cls: "boundary",
      family: ">= for > inside NOT IN",
      reference:
        `SELECT count(*) AS n FROM customer c WHERE c.customer_id NOT IN (SELECT i.customer_id FROM invoice i WHERE i.total > ${c})`,
      equivalent:
        `SELECT count(*) AS n FROM customer c WHERE NOT EXISTS (SELECT 1 FROM invoice i WHERE i.customer_id = c.customer_id AND i.total > ${c})`,
      nearMiss:
        `SELECT count(*) AS n FROM customer c WHERE c.customer_id NOT IN (SELECT i.customer_id FROM invoice i WHERE i.total >= ${c})`,
      proof: m.invoice(1, { total: c }),
    });
  }
  const reps: [string, string][] = [["Canada", "Park"], ["Brazil", "Johnson"], [
    "France",
    "Peacock",
  ], ["India", "Johnson"]];
  for (const [x, name] of reps) {
    add({
      cls: "second value",
      family: "the support rep's join dropped",
      reference:
        `SELECT count(*) AS n FROM customer c JOIN employee e ON e.employee_id = c.support_rep_id WHERE e.last_name = '${name}' AND c.country = '${x}'`,
      equivalent:
        `SELECT count(*) AS n FROM customer c WHERE c.country = '${x}' AND c.support_rep_id IN (SELECT employee_id FROM employee WHERE last_name = '${name}')`,
      nearMiss: `SELECT count(*) AS n FROM customer c WHERE c.country = '${x}'`,
      proof: m.customer(2, { country: x }),
    });
  }
  add({
    cls: "second value",
    family: "the billing country for the customer's, grouped",
    reference:
      "SELECT c.country AS country, round(sum(i.total), 2) AS s FROM invoice i JOIN customer c ON c.customer_id = i.customer_id GROUP BY c.country",
    equivalent:
      "SELECT c.country AS country, round(sum(i.total), 2) AS s FROM customer c JOIN invoice i ON i.customer_id = c.customer_id GROUP BY 1",
    nearMiss:
      "SELECT i.billing_country AS country, round(sum(i.total), 2) AS s FROM invoice i GROUP BY i.billing_country",
    proof: m.invoice(1, { billing_country: "France" }),
  });
  add({
    cls: "duplicate",
    family: "DISTINCT dropped over a join",
    reference:
      "SELECT DISTINCT ar.name FROM artist ar JOIN album al ON al.artist_id = ar.artist_id WHERE al.released BETWEEN 1995 AND 1996",
    equivalent:
      "SELECT ar.name FROM artist ar WHERE EXISTS (SELECT 1 FROM album al WHERE al.artist_id = ar.artist_id AND al.released >= 1995 AND al.released <= 1996) GROUP BY ar.name",
    nearMiss:
      "SELECT ar.name FROM artist ar JOIN album al ON al.artist_id = ar.artist_id WHERE al.released BETWEEN 1995 AND 1996",
    proof: `${ins("album", { album_id: 2, title: "X", artist_id: 1, released: 1995 })};\n${
      ins("album", { album_id: 3, title: "Y", artist_id: 1, released: 1996 })
    }`,
  });
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key, three tables",
    reference:
      "SELECT ar.name, count(*) AS n FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id WHERE t.genre_id = 1 GROUP BY ar.artist_id",
    equivalent:
      "SELECT ar.name, count(t.track_id) AS n FROM artist ar JOIN album al ON al.artist_id = ar.artist_id JOIN track t ON t.album_id = al.album_id WHERE 1 = t.genre_id GROUP BY al.artist_id",
    nearMiss:
      "SELECT ar.name, count(*) AS n FROM track t JOIN album al ON al.album_id = t.album_id JOIN artist ar ON ar.artist_id = al.artist_id WHERE t.genre_id = 1 GROUP BY ar.name",
    proof: `${ins("artist", { artist_id: 2, name: "A" })};\n${
      ins("album", { album_id: 2, title: "U", artist_id: 2 })
    };\n${m.track(1)};\n${m.track(2, { album_id: 2 })}`,
  });
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION over joins",
    reference:
      "SELECT c.last_name, c.country FROM customer c JOIN invoice i ON i.customer_id = c.customer_id WHERE i.total > 11 UNION SELECT c.last_name, c.country FROM customer c WHERE c.support_rep_id = 3 AND c.country = 'Chile'",
    equivalent:
      "SELECT DISTINCT last_name, country FROM customer c WHERE (support_rep_id = 3 AND country = 'Chile') OR EXISTS (SELECT 1 FROM invoice i WHERE i.customer_id = c.customer_id AND i.total > 11)",
    nearMiss:
      "SELECT c.last_name, c.country FROM customer c JOIN invoice i ON i.customer_id = c.customer_id WHERE i.total > 11 UNION ALL SELECT c.last_name, c.country FROM customer c WHERE c.support_rep_id = 3 AND c.country = 'Chile'",
    proof: `${m.invoice(1, { total: 14 })};\n${m.invoice(2, { total: 15 })}`,
  });
  add({
    cls: "other",
    family: "INNER for LEFT with a filter",
    reference:
      "SELECT e.last_name, count(c.customer_id) AS n FROM employee e LEFT JOIN customer c ON c.support_rep_id = e.employee_id WHERE e.title = 'Sales Support Agent' GROUP BY e.employee_id",
    equivalent:
      "SELECT e.last_name, (SELECT count(*) FROM customer c WHERE c.support_rep_id = e.employee_id) AS n FROM employee e WHERE e.title = 'Sales Support Agent'",
    nearMiss:
      "SELECT e.last_name, count(*) AS n FROM employee e JOIN customer c ON c.support_rep_id = e.employee_id WHERE e.title = 'Sales Support Agent' GROUP BY e.employee_id",
    proof: ins("employee", {
      employee_id: 9,
      last_name: "New",
      first_name: "N",
      title: "Sales Support Agent",
    }),
  });
  return out;
}

function schoolHard(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db: "school", ...i, proof: `${s.BASE};\n${i.proof}` });
  };
  for (const k of [7, 8]) {
    const q = (op: string) =>
      `SELECT st.name FROM student st WHERE st.year = 3 AND (SELECT count(*) FROM enrollment e WHERE e.student_id = st.student_id AND e.term = '2025S') ${op} ${k}`;
    add({
      cls: "boundary",
      family: "a correlated count at the boundary",
      reference: q(">="),
      equivalent:
        `SELECT st.name FROM student st JOIN enrollment e ON e.student_id = st.student_id WHERE e.term = '2025S' AND st.year = 3 GROUP BY st.student_id HAVING count(*) >= ${k}`,
      nearMiss: q(">"),
      proof: `${s.student(2, { year: 3 })};\n${
        Array.from({ length: k }, (_, i) =>
          `${s.course(`X${i}`)};\n${s.enroll(2, { course_id: `X${i}`, term: "2025S" })}`).join(
            ";\n",
          )
      }`,
    });
  }
  const depts: [string, number, number, string][] = [["Physics", 2, 90, ">="], [
    "History",
    3,
    60,
    "<=",
  ], ["Biology", 4, 80, ">="]];
  for (const [d, id, c, op] of depts) {
    const near = op === ">=" ? ">" : "<";
    const q = (o: string) =>
      `SELECT st.name FROM student st JOIN enrollment e ON e.student_id = st.student_id JOIN course c ON c.course_id = e.course_id JOIN department d ON d.dept_id = c.dept_id WHERE d.name = '${d}' AND e.grade ${o} ${c} AND e.term = '2024F'`;
    add({
      cls: "boundary",
      family: "> for >= in a four-table join",
      reference: q(op),
      equivalent:
        `SELECT st.name FROM enrollment e JOIN student st ON st.student_id = e.student_id JOIN course c ON c.course_id = e.course_id WHERE e.term = '2024F' AND ${c} ${
          op === ">=" ? "<=" : ">="
        } e.grade AND c.dept_id IN (SELECT dept_id FROM department WHERE name = '${d}')`,
      nearMiss: q(near),
      proof: `${ins("department", { dept_id: id, name: d })};\n${
        s.course("ZZ1", { dept_id: id })
      };\n${s.enroll(1, { course_id: "ZZ1", grade: c })}`,
    });
  }
  for (const c of [70, 72]) {
    add({
      cls: "boundary",
      family: "> for >= on an average",
      reference:
        `SELECT c.course_id FROM course c JOIN enrollment e ON e.course_id = c.course_id GROUP BY c.course_id HAVING avg(e.grade) >= ${c}`,
      equivalent:
        `SELECT course_id FROM enrollment GROUP BY course_id HAVING NOT (avg(grade) < ${c})`,
      nearMiss:
        `SELECT c.course_id FROM course c JOIN enrollment e ON e.course_id = c.course_id GROUP BY c.course_id HAVING avg(e.grade) > ${c}`,
      proof: s.enroll(1, { grade: c }),
    });
  }
  for (const b of ["North", "South"]) {
    add({
      cls: "null",
      family: "NOT IN over a join for NOT EXISTS",
      reference:
        `SELECT t.name FROM teacher t WHERE NOT EXISTS (SELECT 1 FROM course c JOIN department d ON d.dept_id = c.dept_id WHERE d.building = '${b}' AND c.teacher_id = t.teacher_id)`,
      equivalent:
        `SELECT t.name FROM teacher t WHERE t.teacher_id NOT IN (SELECT c.teacher_id FROM course c JOIN department d ON d.dept_id = c.dept_id WHERE d.building = '${b}' AND c.teacher_id IS NOT NULL)`,
      nearMiss:
        `SELECT t.name FROM teacher t WHERE t.teacher_id NOT IN (SELECT c.teacher_id FROM course c JOIN department d ON d.dept_id = c.dept_id WHERE d.building = '${b}')`,
      proof: `${ins("department", { dept_id: 2, name: "D2", building: b })};\n${s.teacher(2)};\n${
        s.course("ZZ1", { dept_id: 2, teacher_id: null })
      }`,
    });
  }
  for (const d of ["Music", "Physics"]) {
    add({
      cls: "null",
      family: "NOT IN with a NULL outside, over a join",
      reference:
        `SELECT count(*) AS n FROM student s WHERE s.year = 2 AND NOT EXISTS (SELECT 1 FROM teacher t JOIN department d ON d.dept_id = t.dept_id WHERE d.name = '${d}' AND t.teacher_id = s.advisor_id)`,
      equivalent:
        `SELECT count(*) AS n FROM student s WHERE s.year = 2 AND (s.advisor_id IS NULL OR s.advisor_id NOT IN (SELECT t.teacher_id FROM teacher t JOIN department d ON d.dept_id = t.dept_id WHERE d.name = '${d}'))`,
      nearMiss:
        `SELECT count(*) AS n FROM student s WHERE s.year = 2 AND s.advisor_id NOT IN (SELECT t.teacher_id FROM teacher t JOIN department d ON d.dept_id = t.dept_id WHERE d.name = '${d}')`,
      proof: `${ins("department", { dept_id: 5, name: d })};\n${s.teacher(5, { dept_id: 5 })};\n${
        s.student(2, { year: 2, advisor_id: null })
      }`,
    });
  }
  for (const c of ["PH102", "HI103", "MA106"]) {
    add({
      cls: "second value",
      family: "missing term filter in a join",
      reference:
        `SELECT st.name, e.grade FROM enrollment e JOIN student st ON st.student_id = e.student_id WHERE e.course_id = '${c}' AND e.term = '2024F' AND e.grade > 85`,
      equivalent:
        `SELECT st.name, e.grade FROM student st JOIN enrollment e ON e.student_id = st.student_id WHERE e.grade > 85 AND e.term = '2024F' AND e.course_id = '${c}'`,
      nearMiss:
        `SELECT st.name, e.grade FROM enrollment e JOIN student st ON st.student_id = e.student_id WHERE e.course_id = '${c}' AND e.grade > 85`,
      proof: `${s.course(c)};\n${s.enroll(1, { course_id: c, term: "2025S", grade: 88 })}`,
    });
  }
  for (const d of ["History", "Biology"]) {
    add({
      cls: "second value",
      family: "the teacher's department for the course's, by name",
      reference:
        `SELECT c.title FROM course c JOIN department d ON d.dept_id = c.dept_id WHERE d.name = '${d}' AND c.credits = 3`,
      equivalent:
        `SELECT c.title FROM course c WHERE c.credits = 3 AND c.dept_id = (SELECT dept_id FROM department WHERE name = '${d}')`,
      nearMiss:
        `SELECT c.title FROM course c JOIN teacher t ON t.teacher_id = c.teacher_id JOIN department d ON d.dept_id = t.dept_id WHERE d.name = '${d}' AND c.credits = 3`,
      proof: `${ins("department", { dept_id: 3, name: d })};\n${s.teacher(3, { dept_id: 3 })};\n${
        s.course("ZZ1", { dept_id: 1, teacher_id: 3 })
      }`,
    });
  }
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION over a join",
    reference:
      "SELECT st.name, st.year FROM student st WHERE st.gpa > 3.95 UNION SELECT st.name, st.year FROM student st JOIN enrollment e ON e.student_id = st.student_id WHERE e.grade < 42 AND e.term = '2025S' AND e.course_id LIKE 'MU%'",
    equivalent:
      "SELECT DISTINCT name, year FROM student st WHERE gpa > 3.95 OR student_id IN (SELECT student_id FROM enrollment WHERE term = '2025S' AND grade < 42 AND course_id LIKE 'MU%')",
    nearMiss:
      "SELECT st.name, st.year FROM student st WHERE st.gpa > 3.95 UNION ALL SELECT st.name, st.year FROM student st JOIN enrollment e ON e.student_id = st.student_id WHERE e.grade < 42 AND e.term = '2025S' AND e.course_id LIKE 'MU%'",
    proof: `${s.student(2, { gpa: 3.97 })};\n${s.course("MU1")};\n${
      s.enroll(2, { course_id: "MU1", grade: 41, term: "2025S" })
    }`,
  });
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key, with a filter",
    reference:
      "SELECT t.name, count(*) AS n FROM student st JOIN teacher t ON t.teacher_id = st.advisor_id WHERE st.year = 4 GROUP BY t.teacher_id",
    equivalent:
      "SELECT t.name, count(st.student_id) AS n FROM teacher t JOIN student st ON st.advisor_id = t.teacher_id WHERE 4 = st.year GROUP BY st.advisor_id",
    nearMiss:
      "SELECT t.name, count(*) AS n FROM student st JOIN teacher t ON t.teacher_id = st.advisor_id WHERE st.year = 4 GROUP BY t.name",
    proof: `${s.teacher(2, { name: "T1" })};\n${s.student(2, { year: 4 })};\n${
      s.student(3, { year: 4, advisor_id: 2 })
    }`,
  });
  return out;
}

function shopHard(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db">, db: "shop" | "shop_big" = "shop"): void => {
    out.push({ db, ...i });
  };
  for (const [st, c] of [["delivered", 20], ["shipped", 50]] as const) {
    add({
      cls: "second value",
      family: "missing tenant filter, three tables",
      reference:
        `SELECT p.category, sum(i.qty) AS q FROM order_item i JOIN orders o ON o.order_id = i.order_id JOIN product p ON p.product_id = i.product_id WHERE o.store_id = 1 AND o.status = '${st}' AND p.price > ${c} GROUP BY p.category`,
      equivalent:
        `SELECT p.category, sum(i.qty) AS q FROM product p JOIN order_item i ON i.product_id = p.product_id JOIN orders o ON o.order_id = i.order_id WHERE o.status = '${st}' AND p.price > ${c} AND 1 = o.store_id GROUP BY p.category`,
      nearMiss:
        `SELECT p.category, sum(i.qty) AS q FROM order_item i JOIN orders o ON o.order_id = i.order_id JOIN product p ON p.product_id = i.product_id WHERE o.status = '${st}' AND p.price > ${c} GROUP BY p.category`,
      proof: `${p.order(1, { store_id: 2, status: st })};\n${p.product(1, { price: c + 1 })};\n${
        p.item(1, 1)
      }`,
    });
    add({
      cls: "second value",
      family: "the product's store for the order's, three tables",
      reference:
        `SELECT count(*) AS n FROM order_item i JOIN orders o ON o.order_id = i.order_id JOIN product p ON p.product_id = i.product_id WHERE o.store_id = 1 AND o.status = '${st}'`,
      equivalent:
        `SELECT count(*) AS n FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE i.order_id IN (SELECT order_id FROM orders WHERE store_id = 1 AND status = '${st}')`,
      nearMiss:
        `SELECT count(*) AS n FROM order_item i JOIN orders o ON o.order_id = i.order_id JOIN product p ON p.product_id = i.product_id WHERE p.store_id = 1 AND o.status = '${st}'`,
      proof: `${p.order(1, { status: st, store_id: 2 })};\n${p.product(1)};\n${p.item(1, 1)}`,
    });
  }
  for (const c of [20, 50]) {
    const q = (op: string) =>
      `SELECT o.order_id FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.store_id = 1 AND o.status = 'shipped' AND p.price ${op} ${c} AND p.category = 'books'`;
    add({
      cls: "boundary",
      family: "> for >= among four filters",
      reference: q(">="),
      equivalent:
        `SELECT o.order_id FROM product p JOIN order_item i ON i.product_id = p.product_id JOIN orders o ON o.order_id = i.order_id WHERE p.category = 'books' AND NOT (p.price < ${c}) AND o.status = 'shipped' AND o.store_id = 1`,
      nearMiss: q(">"),
      proof: `${p.order(1, { status: "shipped" })};\n${
        p.product(1, { price: c, category: "books" })
      };\n${p.item(1, 1)}`,
    });
  }
  for (const [k, op, near] of [[6, "<=", "<"], [6, ">=", ">"], [7, ">=", ">"]] as const) {
    const q = (o: string) =>
      `SELECT c.name FROM customer c WHERE c.store_id = 1 AND (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'delivered') ${o} ${k}`;
    add({
      cls: "boundary",
      family: "a correlated count at the boundary",
      reference: q(op),
      equivalent:
        `SELECT c.name FROM customer c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'delivered' WHERE c.store_id = 1 GROUP BY c.customer_id HAVING count(o.order_id) ${op} ${k}`,
      nearMiss: q(near),
      proof: `${p.customer(1)};\n${
        Array.from({ length: k }, (_, i) => p.order(i + 1, { status: "delivered" })).join(";\n")
      }`,
    });
  }
  for (const reason of ["late", "damaged"]) {
    add({
      cls: "null",
      family: "NOT IN for NOT EXISTS with a filter",
      reference:
        `SELECT count(*) AS n FROM orders o WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM refund r WHERE r.order_id = o.order_id AND r.reason = '${reason}')`,
      equivalent:
        `SELECT count(*) AS n FROM orders o WHERE o.status = 'delivered' AND o.order_id NOT IN (SELECT r.order_id FROM refund r WHERE r.reason = '${reason}' AND r.order_id IS NOT NULL)`,
      nearMiss:
        `SELECT count(*) AS n FROM orders o WHERE o.status = 'delivered' AND o.order_id NOT IN (SELECT r.order_id FROM refund r WHERE r.reason = '${reason}')`,
      proof: `${p.order(1, { status: "delivered" })};\n${
        ins("refund", { refund_id: 1, amount: 1, reason })
      }`,
    });
  }
  add({
    cls: "null",
    family: "NOT IN for NOT EXISTS with a filter",
    reference:
      "SELECT c.name FROM customer c WHERE c.vip = 1 AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'paid' AND o.created_at >= '2025-06-01')",
    equivalent:
      "SELECT c.name FROM customer c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'paid' AND o.created_at >= '2025-06-01' WHERE c.vip = 1 AND o.order_id IS NULL",
    nearMiss:
      "SELECT c.name FROM customer c WHERE c.vip = 1 AND c.customer_id NOT IN (SELECT o.customer_id FROM orders o WHERE o.status = 'paid' AND o.created_at >= '2025-06-01')",
    proof: `${p.customer(1, { vip: 1 })};\n${
      p.order(1, { customer_id: null, created_at: "2025-07-01 10:00:00" })
    }`,
  });
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION over a join",
    reference:
      "SELECT c.name, o.status FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE o.created_at < '2024-01-15' UNION SELECT c.name, o.status FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE o.created_at > '2025-08-10'",
    equivalent:
      "SELECT DISTINCT c.name, o.status FROM customer c JOIN orders o ON o.customer_id = c.customer_id WHERE o.created_at > '2025-08-10' OR o.created_at < '2024-01-15'",
    nearMiss:
      "SELECT c.name, o.status FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE o.created_at < '2024-01-15' UNION ALL SELECT c.name, o.status FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE o.created_at > '2025-08-10'",
    proof: `${p.customer(1)};\n${p.order(1, { created_at: "2024-01-02 10:00:00" })};\n${
      p.order(2, { created_at: "2025-09-01 10:00:00" })
    }`,
  });
  add({
    cls: "second value",
    family: "<> for IN over a join",
    reference:
      "SELECT count(*) AS n FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.status IN ('shipped', 'delivered') AND p.category = 'toys'",
    equivalent:
      "SELECT count(*) AS n FROM order_item i JOIN orders o ON o.order_id = i.order_id JOIN product p ON p.product_id = i.product_id WHERE p.category = 'toys' AND (o.status = 'delivered' OR o.status = 'shipped')",
    nearMiss:
      "SELECT count(*) AS n FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.status <> 'paid' AND p.category = 'toys'",
    proof: `${p.order(1, { status: "returned" })};\n${p.product(1)};\n${p.item(1, 1)}`,
  });
  // on the shop with 300,000 orders
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION over a join, large tables",
    reference:
      "SELECT o.customer_id, i.product_id FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.order_id < 50 UNION SELECT o.customer_id, i.product_id FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.order_id > 299950",
    equivalent:
      "SELECT DISTINCT o.customer_id, i.product_id FROM order_item i JOIN orders o ON o.order_id = i.order_id JOIN product p ON p.product_id = i.product_id WHERE o.order_id > 299950 OR o.order_id < 50",
    nearMiss:
      "SELECT o.customer_id, i.product_id FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.order_id < 50 UNION ALL SELECT o.customer_id, i.product_id FROM orders o JOIN order_item i ON i.order_id = o.order_id JOIN product p ON p.product_id = i.product_id WHERE o.order_id > 299950",
    proof: `${p.order(1)};\n${p.order(299999)};\n${p.product(1)};\n${p.item(1, 1)};\n${
      p.item(299999, 1)
    }`,
  }, "shop_big");
  add({
    cls: "second value",
    family: "the customer's store for the order's, large tables",
    reference:
      "SELECT count(*) AS n FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE o.store_id = 1 AND c.vip = 1 AND o.status = 'paid'",
    equivalent:
      "SELECT count(*) AS n FROM orders o WHERE o.status = 'paid' AND o.store_id = 1 AND o.customer_id IN (SELECT customer_id FROM customer WHERE vip = 1)",
    nearMiss:
      "SELECT count(*) AS n FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE c.store_id = 1 AND c.vip = 1 AND o.status = 'paid'",
    proof: `${p.customer(1, { vip: 1 })};\n${p.order(1, { store_id: 2 })}`,
  }, "shop_big");
  add({
    cls: "boundary",
    family: "> for >= in a join, large tables",
    reference:
      "SELECT count(*) AS n FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.category = 'garden' AND i.unit_price >= 50",
    equivalent:
      "SELECT count(*) AS n FROM order_item i WHERE i.unit_price >= 50 AND i.product_id IN (SELECT product_id FROM product WHERE category = 'garden')",
    nearMiss:
      "SELECT count(*) AS n FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.category = 'garden' AND i.unit_price > 50",
    proof: `${p.product(1, { category: "garden" })};\n${p.item(1, 1, { unit_price: 50 })}`,
  }, "shop_big");
  add({
    cls: "null",
    family: "NOT IN for NOT EXISTS with a filter, large tables",
    reference:
      "SELECT count(*) AS n FROM customer c WHERE c.vip = 1 AND c.customer_id < 500 AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'paid' AND o.created_at > '2025-08-20')",
    equivalent:
      "SELECT count(*) AS n FROM customer c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'paid' AND o.created_at > '2025-08-20' WHERE c.vip = 1 AND c.customer_id < 500 AND o.order_id IS NULL",
    nearMiss:
      "SELECT count(*) AS n FROM customer c WHERE c.vip = 1 AND c.customer_id < 500 AND c.customer_id NOT IN (SELECT o.customer_id FROM orders o WHERE o.status = 'paid' AND o.created_at > '2025-08-20')",
    proof: `${p.customer(1, { vip: 1 })};\n${
      p.order(1, { customer_id: null, created_at: "2025-09-01 10:00:00" })
    }`,
  }, "shop_big");
  return out;
}

/** The harder pairs on every database. */
export function hardPairs(): HeldoutInstance[] {
  return [...musicHard(), ...schoolHard(), ...shopHard()];
}

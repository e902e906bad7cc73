/**
 * The held-out-style pairs on "shop" (no declared foreign keys; three
 * stores, rows for the first only; no cancelled order) and on "shop_big",
 * the same schema with 300,000 orders.
 *
 * @module
 */
import type { HeldoutDb } from "./_heldout_dbs.ts";
import { type Cols, type HeldoutInstance, ins } from "./_heldout_types.ts";

export const order = (id: number, c: Cols = {}): string =>
  ins("orders", {
    order_id: id,
    store_id: 1,
    customer_id: 1,
    status: "paid",
    created_at: "2024-05-05 10:11:00",
    shipped_at: null,
    ...c,
  });
export const item = (o: number, p: number, c: Cols = {}): string =>
  ins("order_item", { order_id: o, product_id: p, qty: 1, unit_price: 3.25, ...c });
export const product = (id: number, c: Cols = {}): string =>
  ins("product", {
    product_id: id,
    store_id: 1,
    sku: `S-${id}`,
    name: `P${id}`,
    price: 3.25,
    stock: 7,
    category: "toys",
    ...c,
  });
export const customer = (id: number, c: Cols = {}): string =>
  ins("customer", {
    customer_id: id,
    store_id: 1,
    name: `C${id}`,
    email: `c${id}@x`,
    vip: 0,
    ...c,
  });
export const STORES = [
  ins("store", { store_id: 1, name: "Main", region: "north" }),
  ins("store", { store_id: 2, name: "Outlet", region: "south" }),
].join(";\n");

function tenantPairs(db: HeldoutDb): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db, ...i });
  };
  for (const status of ["paid", "shipped", "delivered"]) {
    add({
      cls: "second value",
      family: "missing tenant filter",
      reference: `SELECT count(*) AS n FROM orders WHERE store_id = 1 AND status = '${status}'`,
      equivalent:
        `SELECT count(*) AS n FROM orders o WHERE o.status = '${status}' AND o.store_id = 1`,
      nearMiss: `SELECT count(*) AS n FROM orders WHERE status = '${status}'`,
      proof: order(1, { store_id: 2, status }),
    });
  }
  add({
    cls: "second value",
    family: "missing tenant filter through a join",
    reference:
      "SELECT round(sum(i.qty * i.unit_price), 2) AS revenue FROM orders o JOIN order_item i ON i.order_id = o.order_id WHERE o.store_id = 1 AND o.status = 'delivered'",
    equivalent:
      "SELECT round(sum(i.qty * i.unit_price), 2) AS revenue FROM order_item i WHERE i.order_id IN (SELECT order_id FROM orders WHERE status = 'delivered' AND store_id = 1)",
    nearMiss:
      "SELECT round(sum(i.qty * i.unit_price), 2) AS revenue FROM orders o JOIN order_item i ON i.order_id = o.order_id WHERE o.status = 'delivered'",
    proof: `${order(1, { store_id: 2, status: "delivered" })};\n${item(1, 1)}`,
  });
  add({
    cls: "second value",
    family: "the customer's store for the order's",
    reference:
      "SELECT count(*) AS n FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE o.store_id = 1",
    equivalent:
      "SELECT count(*) AS n FROM customer c JOIN orders o ON o.customer_id = c.customer_id WHERE 1 = o.store_id",
    nearMiss:
      "SELECT count(*) AS n FROM orders o JOIN customer c ON c.customer_id = o.customer_id WHERE c.store_id = 1",
    proof: `${customer(1)};\n${order(1, { store_id: 2 })}`,
  });
  add({
    cls: "second value",
    family: "missing tenant filter on the store's name",
    reference:
      "SELECT count(*) AS n FROM orders o JOIN store s ON s.store_id = o.store_id WHERE s.name = 'Main'",
    equivalent:
      "SELECT count(*) AS n FROM orders WHERE store_id IN (SELECT store_id FROM store WHERE name = 'Main')",
    nearMiss: "SELECT count(*) AS n FROM orders",
    proof: `${STORES};\n${order(1, { store_id: 2 })}`,
  });
  return out;
}

/** The shop pairs, and the few on shop_big. */
export function shopPairs(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [...tenantPairs("shop")];
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db: "shop", ...i });
  };
  for (const cat of ["toys", "books", "garden"]) {
    add({
      cls: "second value",
      family: "missing tenant filter",
      reference: `SELECT sku, name FROM product WHERE store_id = 1 AND category = '${cat}'`,
      equivalent:
        `SELECT p.sku, p.name FROM product p WHERE p.category = '${cat}' AND p.store_id = 1`,
      nearMiss: `SELECT sku, name FROM product WHERE category = '${cat}'`,
      proof: product(1, { store_id: 2, category: cat }),
    });
  }
  add({
    cls: "second value",
    family: "missing tenant filter",
    reference: "SELECT name FROM customer WHERE store_id = 1 AND vip = 1",
    equivalent: "SELECT name FROM customer WHERE vip = 1 AND store_id = 1",
    nearMiss: "SELECT name FROM customer WHERE vip = 1",
    proof: customer(1, { store_id: 3, vip: 1 }),
  });
  add({
    cls: "second value",
    family: "the product's store for the order's",
    reference:
      "SELECT count(*) AS n FROM order_item i JOIN orders o ON o.order_id = i.order_id WHERE o.store_id = 1",
    equivalent:
      "SELECT count(*) AS n FROM order_item WHERE order_id IN (SELECT order_id FROM orders WHERE store_id = 1)",
    nearMiss:
      "SELECT count(*) AS n FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.store_id = 1",
    proof: `${order(1)};\n${product(1, { store_id: 2 })};\n${item(1, 1)}`,
  });
  add({
    cls: "second value",
    family: "a status filter true today, dropped",
    reference: "SELECT count(*) AS n FROM orders WHERE status <> 'cancelled'",
    equivalent: "SELECT count(*) AS n FROM orders WHERE NOT (status = 'cancelled')",
    nearMiss: "SELECT count(*) AS n FROM orders",
    proof: order(1, { status: "cancelled" }),
  });
  add({
    cls: "second value",
    family: "<> for IN",
    reference: "SELECT count(*) AS n FROM orders WHERE status IN ('shipped', 'delivered')",
    equivalent: "SELECT count(*) AS n FROM orders WHERE status = 'shipped' OR status = 'delivered'",
    nearMiss: "SELECT count(*) AS n FROM orders WHERE status <> 'paid'",
    proof: order(1, { status: "returned" }),
  });
  add({
    cls: "null",
    family: "shipped_at for the status",
    reference: "SELECT order_id FROM orders WHERE status = 'paid'",
    equivalent: "SELECT order_id FROM orders WHERE status IN ('paid')",
    nearMiss: "SELECT order_id FROM orders WHERE shipped_at IS NULL",
    proof: order(1, { status: "shipped" }),
  });
  for (const c of [10, 20, 50, 100]) {
    add({
      cls: "boundary",
      family: "> for >= on a price",
      reference: `SELECT sku FROM product WHERE price >= ${c} AND store_id = 1`,
      equivalent: `SELECT sku FROM product WHERE store_id = 1 AND NOT (price < ${c})`,
      nearMiss: `SELECT sku FROM product WHERE price > ${c} AND store_id = 1`,
      proof: product(1, { price: c }),
    });
  }
  for (const k of [5, 10, 20]) {
    add({
      cls: "boundary",
      family: "< for <= on a stock count",
      reference: `SELECT name FROM product WHERE stock <= ${k}`,
      equivalent: `SELECT name FROM product WHERE NOT (stock > ${k})`,
      nearMiss: `SELECT name FROM product WHERE stock < ${k}`,
      proof: product(1, { stock: k }),
    });
  }
  add({
    cls: "boundary",
    family: "< for <= on a price in a join",
    reference:
      "SELECT p.name, sum(i.qty) AS q FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.category = 'books' AND i.unit_price <= 20 GROUP BY p.product_id",
    equivalent:
      "SELECT p.name, sum(i.qty) AS q FROM product p JOIN order_item i ON i.product_id = p.product_id WHERE NOT (i.unit_price > 20) AND 'books' = p.category GROUP BY i.product_id",
    nearMiss:
      "SELECT p.name, sum(i.qty) AS q FROM order_item i JOIN product p ON p.product_id = i.product_id WHERE p.category = 'books' AND i.unit_price < 20 GROUP BY p.product_id",
    proof: `${product(1, { category: "books" })};\n${item(1, 1, { unit_price: 20 })}`,
  });
  const notIn: [string, string, string, string][] = [
    ["orders", "order_id", "refund", `${order(1)};\n${ins("refund", { refund_id: 1, amount: 1 })}`],
    ["customer", "customer_id", "orders", `${customer(1)};\n${order(1, { customer_id: null })}`],
  ];
  for (const [outer, key, inner, proof] of notIn) {
    add({
      cls: "null",
      family: "NOT IN for NOT EXISTS",
      reference:
        `SELECT count(*) AS n FROM ${outer} o WHERE NOT EXISTS (SELECT 1 FROM ${inner} x WHERE x.${key} = o.${key})`,
      equivalent:
        `SELECT count(*) AS n FROM ${outer} WHERE ${key} NOT IN (SELECT ${key} FROM ${inner} WHERE ${key} IS NOT NULL)`,
      nearMiss:
        `SELECT count(*) AS n FROM ${outer} WHERE ${key} NOT IN (SELECT ${key} FROM ${inner})`,
      proof,
    });
  }
  add({
    cls: "null",
    family: "<> losing the NULLs",
    reference: "SELECT count(*) AS n FROM product WHERE category IS NOT 'toys'",
    equivalent: "SELECT count(*) AS n FROM product WHERE category <> 'toys' OR category IS NULL",
    nearMiss: "SELECT count(*) AS n FROM product WHERE category <> 'toys'",
    proof: product(1, { category: null }),
  });
  add({
    cls: "null",
    family: "COUNT(col) for COUNT(*)",
    reference: "SELECT store_id, count(*) AS n FROM customer GROUP BY store_id",
    equivalent: "SELECT store_id, count(customer_id) AS n FROM customer GROUP BY store_id",
    nearMiss: "SELECT store_id, count(email) AS n FROM customer GROUP BY store_id",
    proof: customer(1, { email: null }),
  });
  const unions: [string, string, string, string][] = [
    ["name", "customer", "vip = 1", "customer_id > 75"],
    ["sku", "product", "category = 'toys'", "price > 100"],
  ];
  for (const [col, t, a, b] of unions) {
    add({
      cls: "duplicate",
      family: "UNION ALL for UNION",
      reference: `SELECT ${col} FROM ${t} WHERE ${a} UNION SELECT ${col} FROM ${t} WHERE ${b}`,
      equivalent: `SELECT DISTINCT ${col} FROM ${t} WHERE ${b} OR ${a}`,
      nearMiss: `SELECT ${col} FROM ${t} WHERE ${a} UNION ALL SELECT ${col} FROM ${t} WHERE ${b}`,
      proof: t === "customer"
        ? `${customer(1, { vip: 1, name: "Same" })};\n${customer(80, { name: "Same" })}`
        : `${product(1, { sku: "S" })};\n${product(2, { sku: "S", store_id: 2, price: 101 })}`,
    });
  }
  add({
    cls: "duplicate",
    family: "a join that repeats rows for IN",
    reference: "SELECT count(*) AS n FROM orders WHERE order_id IN (SELECT order_id FROM refund)",
    equivalent:
      "SELECT count(DISTINCT o.order_id) AS n FROM orders o JOIN refund r ON r.order_id = o.order_id",
    nearMiss: "SELECT count(*) AS n FROM orders o JOIN refund r ON r.order_id = o.order_id",
    proof: `${order(1)};\n${ins("refund", { refund_id: 1, order_id: 1, amount: 1 })};\n${
      ins("refund", { refund_id: 2, order_id: 1, amount: 2 })
    }`,
  });
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key",
    reference:
      "SELECT p.name, sum(i.qty) AS q FROM order_item i JOIN product p ON p.product_id = i.product_id GROUP BY p.product_id",
    equivalent:
      "SELECT p.name, sum(i.qty) AS q FROM product p JOIN order_item i ON i.product_id = p.product_id GROUP BY i.product_id",
    nearMiss:
      "SELECT p.name, sum(i.qty) AS q FROM order_item i JOIN product p ON p.product_id = i.product_id GROUP BY p.name",
    proof: `${product(1)};\n${product(2, { name: "P1" })};\n${item(1, 1)};\n${item(1, 2)}`,
  });
  add({
    cls: "duplicate",
    family: "DISTINCT dropped",
    reference: "SELECT DISTINCT category FROM product WHERE price > 110",
    equivalent: "SELECT category FROM product WHERE price > 110 GROUP BY category",
    nearMiss: "SELECT category FROM product WHERE price > 110",
    proof: `${product(1, { price: 111 })};\n${product(2, { price: 112 })}`,
  });
  add({
    cls: "other",
    family: "INNER for LEFT",
    reference:
      "SELECT p.sku, count(i.order_id) AS n FROM product p LEFT JOIN order_item i ON i.product_id = p.product_id GROUP BY p.product_id",
    equivalent:
      "SELECT p.sku, (SELECT count(*) FROM order_item i WHERE i.product_id = p.product_id) AS n FROM product p",
    nearMiss:
      "SELECT p.sku, count(*) AS n FROM product p JOIN order_item i ON i.product_id = p.product_id GROUP BY p.product_id",
    proof: product(1),
  });
  add({
    cls: "other",
    family: "LIKE for =",
    reference: "SELECT count(*) AS n FROM orders WHERE status = 'paid'",
    equivalent: "SELECT count(*) AS n FROM orders WHERE 'paid' = status",
    nearMiss: "SELECT count(*) AS n FROM orders WHERE status LIKE 'PAID'",
    proof: order(1, { status: "Paid" }),
  });
  out.push(...bigPairs());
  return out;
}

function bigPairs(): HeldoutInstance[] {
  const out: HeldoutInstance[] = tenantPairs("shop_big").slice(0, 3);
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db: "shop_big", ...i });
  };
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION on a large table",
    reference:
      "SELECT customer_id, created_at FROM orders WHERE order_id < 100 UNION SELECT customer_id, created_at FROM orders WHERE order_id > 299900",
    equivalent:
      "SELECT DISTINCT customer_id, created_at FROM orders WHERE order_id > 299900 OR order_id < 100",
    nearMiss:
      "SELECT customer_id, created_at FROM orders WHERE order_id < 100 UNION ALL SELECT customer_id, created_at FROM orders WHERE order_id > 299900",
    proof: `${order(1)};\n${order(299901)}`,
  });
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION on a large table",
    reference:
      "SELECT status FROM orders WHERE created_at < '2024-01-01' UNION SELECT status FROM orders WHERE created_at > '2026-01-01'",
    equivalent:
      "SELECT DISTINCT status FROM orders WHERE created_at < '2024-01-01' OR created_at > '2026-01-01'",
    nearMiss:
      "SELECT status FROM orders WHERE created_at < '2024-01-01' UNION ALL SELECT status FROM orders WHERE created_at > '2026-01-01'",
    proof: `${order(1, { created_at: "2023-12-31 10:00:00" })};\n${
      order(2, { created_at: "2026-02-01 10:00:00" })
    }`,
  });
  add({
    cls: "boundary",
    family: "> for >= on a price",
    reference: "SELECT count(*) AS n FROM product WHERE price >= 50",
    equivalent: "SELECT count(*) AS n FROM product WHERE 50 <= price",
    nearMiss: "SELECT count(*) AS n FROM product WHERE price > 50",
    proof: product(1, { price: 50 }),
  });
  add({
    cls: "null",
    family: "NOT IN for NOT EXISTS",
    reference:
      "SELECT count(*) AS n FROM orders o WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM refund r WHERE r.order_id = o.order_id)",
    equivalent:
      "SELECT count(*) AS n FROM orders o LEFT JOIN refund r ON r.order_id = o.order_id WHERE o.status = 'delivered' AND r.refund_id IS NULL",
    nearMiss:
      "SELECT count(*) AS n FROM orders WHERE status = 'delivered' AND order_id NOT IN (SELECT order_id FROM refund)",
    proof: `${order(1, { status: "delivered" })};\n${ins("refund", { refund_id: 1, amount: 1 })}`,
  });
  add({
    cls: "duplicate",
    family: "DISTINCT dropped",
    reference: "SELECT DISTINCT email FROM customer WHERE customer_id < 50",
    equivalent: "SELECT email FROM customer WHERE customer_id < 50 GROUP BY email",
    nearMiss: "SELECT email FROM customer WHERE customer_id < 50",
    proof: `${customer(1, { email: "same" })};\n${customer(2, { email: "same" })}`,
  });
  return out;
}

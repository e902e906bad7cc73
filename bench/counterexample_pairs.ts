/**
 * The query pairs of the counterexample benchmark, on three databases: the
 * Chinook example, the guide's tutorial shop, and a database of our own with
 * every kind of declared constraint ("lab": composite keys, UNIQUE, NOT NULL,
 * CHECK, FOREIGN KEY, nullable columns).
 *
 * Each instance is a reference query with two rewrites: an equivalent one
 * (aliases, AND order, commuted comparisons, BETWEEN and two comparisons,
 * IN and OR, COUNT(*) and COUNT(1), DISTINCT and GROUP BY, ...) and a near
 * miss that gives the same rows on the given database but not in general,
 * with `proof`: INSERT statements of a database (on the same schema, with
 * foreign keys on) on which the near miss differs. The benchmark checks both
 * claims before it measures anything, and drops an instance that fails them.
 *
 * @module
 */

import { CH_BASE, customer, insert, invoice, LAB_BASE, q, track } from "./_pair_rows.ts";
import { constructedPairs } from "./_pairs_constructed.ts";

/** Which database a pair runs on. */
export type PairDb = "chinook" | "shop" | "lab";

/** A reference query, an equivalent rewrite, and a near miss with its proof. */
export interface Instance {
  readonly db: PairDb;
  readonly family: string;
  readonly reference: string;
  readonly equivalent: string;
  readonly nearMiss: string;
  /** INSERTs that build a database on which `nearMiss` differs from `reference`. */
  readonly proof: string;
  readonly ordered?: boolean;
}

/** The lab database: every kind of declared constraint, nullable columns, one tenant with data. */
export const LAB_SQL = `
CREATE TABLE tenants (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise'))
);
CREATE TABLE products (
  tenant_id INTEGER NOT NULL REFERENCES tenants (id),
  sku TEXT NOT NULL,
  name TEXT NOT NULL,
  price REAL NOT NULL CHECK (price >= 0),
  discontinued INTEGER NOT NULL DEFAULT 0 CHECK (discontinued IN (0, 1)),
  category TEXT,
  PRIMARY KEY (tenant_id, sku)
);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants (id),
  email TEXT NOT NULL,
  placed_at TEXT NOT NULL CHECK (placed_at LIKE '____-__-__%'),
  status TEXT NOT NULL CHECK (status IN ('new', 'paid', 'shipped', 'cancelled')),
  note TEXT,
  coupon TEXT UNIQUE
);
CREATE TABLE order_items (
  order_id INTEGER NOT NULL REFERENCES orders (id),
  tenant_id INTEGER NOT NULL,
  sku TEXT NOT NULL,
  qty INTEGER NOT NULL CHECK (qty > 0),
  discount REAL CHECK (discount BETWEEN 0 AND 1),
  PRIMARY KEY (order_id, sku),
  FOREIGN KEY (tenant_id, sku) REFERENCES products (tenant_id, sku)
);
INSERT INTO tenants VALUES (1, 'acme', 'pro'), (2, 'globex', 'free');
INSERT INTO products VALUES
  (1, 'A-1', 'Anvil', 25.5, 0, 'tools'), (1, 'B-2', 'Bolt', 0.25, 0, 'parts'),
  (1, 'C-3', 'Cable', 7.0, 0, NULL), (1, 'D-4', 'Drill', 89.0, 0, 'tools'),
  (1, 'E-5', 'Epoxy', 12.0, 0, 'parts'), (1, 'F-6', 'Fuse', 1.5, 0, 'parts');
INSERT INTO orders VALUES
  (1, 1, 'ann@acme.test', '2025-01-03', 'paid', NULL, 'WELCOME'),
  (2, 1, 'bob@acme.test', '2025-01-17', 'shipped', 'leave at door', NULL),
  (3, 1, 'ann@acme.test', '2025-02-02', 'paid', NULL, 'SPRING'),
  (4, 1, 'cy@acme.test', '2025-02-20', 'new', 'call first', NULL),
  (5, 1, 'dee@acme.test', '2025-03-05', 'shipped', NULL, NULL),
  (6, 1, 'bob@acme.test', '2025-03-30', 'paid', NULL, 'LOYAL'),
  (7, 1, 'eve@acme.test', '2025-04-11', 'paid', 'gift', NULL),
  (8, 1, 'cy@acme.test', '2025-04-28', 'shipped', NULL, NULL);
INSERT INTO order_items VALUES
  (1, 1, 'A-1', 1, NULL), (1, 1, 'B-2', 40, 0.1), (2, 1, 'C-3', 2, NULL),
  (2, 1, 'D-4', 1, 0.05), (3, 1, 'E-5', 3, NULL), (3, 1, 'F-6', 10, NULL),
  (4, 1, 'A-1', 2, 0.2), (5, 1, 'B-2', 100, NULL), (5, 1, 'C-3', 1, NULL),
  (6, 1, 'D-4', 1, NULL), (6, 1, 'E-5', 2, 0.15), (7, 1, 'F-6', 4, NULL),
  (8, 1, 'A-1', 1, NULL), (8, 1, 'E-5', 1, 0.5);
`;

/** The guide's tutorial shop (examples/tutorial/shop.ts), as a file. */
export const SHOP_SQL = `
CREATE TABLE orders (store_id TEXT, status TEXT, amount INTEGER);
INSERT INTO orders VALUES ('s1', 'DELIVERED', 1200), ('s1', 'DELIVERED', 800),
  ('s1', 'CANCELLED', 500), ('s2', 'DELIVERED', 9900);
`;

function chinook(): Instance[] {
  const out: Instance[] = [];
  const add = (i: Omit<Instance, "db">): void => {
    out.push({ db: "chinook", ...i, proof: `${CH_BASE};\n${i.proof}` });
  };
  // Boundaries: > for >= and < for <=, where no row holds the constant today.
  const bounds: [string, string, string, number, (v: number) => string][] = [
    ["Track", "TrackId", "Milliseconds", 0, (v) => track(9001, { Milliseconds: v })],
    ["Track", "TrackId", "Bytes", 0, (v) => track(9001, { Bytes: v })],
    ["Invoice", "InvoiceId", "Total", 0, (v) => invoice(9001, { Total: v })],
  ];
  const constants: Record<string, number[]> = {
    Milliseconds: [100000, 150000, 200000, 250000, 300000, 350000, 400000, 450000, 500000, 600000],
    Bytes: [2000000, 4000000, 6000000, 8000000, 10000000, 12000000],
    Total: [2, 4, 6, 9, 12, 14, 16, 20, 22, 24],
  };
  for (const [table, key, col, , make] of bounds) {
    for (const c of constants[col]!) {
      add({
        family: "boundary >",
        reference: `SELECT count(*) AS n FROM ${table} WHERE ${col} > ${c}`,
        equivalent: `SELECT count(1) AS n FROM ${table} t WHERE ${c} < t.${col}`,
        nearMiss: `SELECT count(*) AS n FROM ${table} WHERE ${col} >= ${c}`,
        proof: make(c),
      });
      add({
        family: "boundary <",
        reference: `SELECT ${key} FROM ${table} WHERE ${col} < ${c} AND ${key} < 60`,
        equivalent: `SELECT ${key} FROM ${table} WHERE ${key} < 60 AND NOT (${col} >= ${c})`,
        nearMiss: `SELECT ${key} FROM ${table} WHERE ${col} <= ${c} AND ${key} < 60`,
        proof: make(c).replace("9001", "7"),
      });
    }
  }
  // A missing filter whose value is the same for every row today (a tenant).
  const countries = [
    "Argentina",
    "Australia",
    "Austria",
    "Belgium",
    "Chile",
    "Denmark",
    "Finland",
    "Hungary",
    "India",
    "Ireland",
    "Italy",
    "Netherlands",
    "Norway",
    "Poland",
    "Portugal",
    "Spain",
    "Sweden",
  ];
  for (const country of countries) {
    for (const rep of [3, 4, 5]) {
      add({
        family: "missing tenant filter",
        reference: `SELECT count(*) AS n FROM Customer WHERE SupportRepId = ${rep} AND Country = ${
          q(country)
        }`,
        equivalent: `SELECT count(*) AS n FROM Customer c WHERE c.Country = ${
          q(country)
        } AND c.SupportRepId = ${rep}`,
        nearMiss: `SELECT count(*) AS n FROM Customer WHERE Country = ${q(country)}`,
        proof: customer(9001, { Country: country, SupportRepId: rep === 3 ? 4 : 3 }),
      });
    }
  }
  // Case and whitespace: = for LIKE, trim for =.
  for (
    const country of ["USA", "Canada", "Brazil", "France", "Germany", "India", "Chile", "Portugal"]
  ) {
    add({
      family: "LIKE for =",
      reference: `SELECT FirstName, LastName FROM Customer WHERE Country = ${q(country)}`,
      equivalent: `SELECT c.FirstName, c.LastName FROM Customer AS c WHERE ${
        q(country)
      } = c.Country`,
      nearMiss: `SELECT FirstName, LastName FROM Customer WHERE Country LIKE ${q(country)}`,
      proof: customer(9001, { Country: country.toLowerCase() }),
    });
    add({
      family: "trim for =",
      reference: `SELECT count(*) AS n FROM Invoice WHERE BillingCountry = ${q(country)}`,
      equivalent: `SELECT count(*) AS n FROM Invoice WHERE BillingCountry IN (${q(country)})`,
      nearMiss: `SELECT count(*) AS n FROM Invoice WHERE trim(BillingCountry) = ${q(country)}`,
      proof: invoice(9001, { BillingCountry: `${country} ` }),
    });
  }
  // IN lists: a value missing that no row holds today.
  const lists: [string, string, string][] = [
    ["USA", "Canada", "Mexico"],
    ["France", "Germany", "Luxembourg"],
    ["Brazil", "Chile", "Peru"],
    ["India", "Australia", "Japan"],
    ["Spain", "Portugal", "Andorra"],
    ["Norway", "Sweden", "Iceland"],
  ];
  for (const [a, b, c] of lists) {
    add({
      family: "IN list",
      reference: `SELECT CustomerId FROM Customer WHERE Country IN (${q(a)}, ${q(b)}, ${q(c)})`,
      equivalent: `SELECT CustomerId FROM Customer WHERE Country = ${q(a)} OR Country = ${
        q(b)
      } OR Country = ${q(c)}`,
      nearMiss: `SELECT CustomerId FROM Customer WHERE Country IN (${q(a)}, ${q(b)})`,
      proof: customer(9001, { Country: c }),
    });
  }
  // COUNT(col) for COUNT(*) where the column has no NULL today.
  const nullable: [string, string, string][] = [
    ["Track", "Composer", "WHERE GenreId = 1 AND Composer IS NOT NULL"],
    ["Track", "Bytes", ""],
    ["Track", "AlbumId", ""],
    ["Track", "GenreId", ""],
    ["Customer", "City", ""],
    ["Customer", "Country", ""],
    ["Invoice", "BillingCity", ""],
    ["Invoice", "BillingAddress", ""],
    ["Invoice", "BillingCountry", ""],
    ["Employee", "Title", ""],
    ["Employee", "HireDate", ""],
  ];
  for (const [table, col, where] of nullable) {
    const nullRow = table === "Track"
      ? track(9001, { [col]: null })
      : table === "Customer"
      ? customer(9001, { [col]: null })
      : table === "Invoice"
      ? invoice(9001, { [col]: null })
      : insert("Employee", { EmployeeId: 9001, LastName: "X", FirstName: "Y", [col]: null });
    add({
      family: "COUNT(col) for COUNT(*)",
      reference: `SELECT count(*) AS n FROM ${table} ${where}`,
      equivalent: `SELECT count(1) AS n FROM ${table} ${where}`,
      nearMiss: `SELECT count(${col}) AS n FROM ${table} ${where}`,
      proof: where === "" ? nullRow : nullRow.replace("NULL", "NULL"),
    });
  }
  // A filter true for every row today, dropped.
  const always: [string, string, string][] = [
    ["Track", "UnitPrice < 2", track(9001, { UnitPrice: 2.99 })],
    ["Track", "Milliseconds > 1000", track(9001, { Milliseconds: 500 })],
    ["Track", "MediaTypeId <= 5", ""],
    ["InvoiceLine", "Quantity = 1", ""],
    ["Invoice", "Total > 0", invoice(9001, { Total: 0 })],
    [
      "Invoice",
      "InvoiceDate >= '2021-01-01'",
      invoice(9001, { InvoiceDate: "2020-12-31 00:00:00" }),
    ],
    ["Customer", "Email LIKE '%@%'", customer(9001, { Email: "nobody" })],
    ["Customer", "SupportRepId IN (3, 4, 5)", customer(9001, { SupportRepId: 1 })],
  ];
  for (const [table, filter, proof] of always) {
    if (proof === "") continue;
    add({
      family: "filter true today",
      reference: `SELECT count(*) AS n FROM ${table} WHERE ${filter}`,
      equivalent: `SELECT count(*) AS n FROM ${table} AS x WHERE (${
        filter.replace(/^(\w+)/, "x.$1")
      })`,
      nearMiss: `SELECT count(*) AS n FROM ${table}`,
      proof: table === "Customer" && filter.startsWith("SupportRepId")
        ? `INSERT OR IGNORE INTO Employee (EmployeeId, LastName, FirstName) VALUES (1, 'Adams', 'Andrew');\n${proof}`
        : proof,
    });
  }
  // DISTINCT dropped where the values are unique today.
  const distinct: [string, string, string][] = [
    ["Genre", "Name", "INSERT INTO Genre (GenreId, Name) VALUES (9001, 'Rock')"],
    [
      "MediaType",
      "Name",
      "INSERT INTO MediaType (MediaTypeId, Name) VALUES (9001, 'MPEG audio file')",
    ],
    ["Artist", "Name", "INSERT INTO Artist (ArtistId, Name) VALUES (9001, 'AC/DC')"],
    ["Customer", "Email", customer(9001, { Email: "luis@x" })],
    [
      "Employee",
      "LastName",
      "INSERT INTO Employee (EmployeeId, LastName, FirstName) VALUES (9001, 'Peacock', 'Jo')",
    ],
    [
      "Album",
      "Title",
      "INSERT INTO Album (AlbumId, Title, ArtistId) VALUES (9001, 'Back in Black', 1)",
    ],
  ];
  for (const [table, col, proof] of distinct) {
    add({
      family: "DISTINCT dropped",
      reference: `SELECT DISTINCT ${col} FROM ${table}`,
      equivalent: `SELECT ${col} FROM ${table} GROUP BY ${col}`,
      nearMiss: `SELECT ${col} FROM ${table}`,
      proof,
    });
  }
  // INNER where LEFT was needed: every parent has children today.
  const joins: [string, string, string, string, string][] = [
    ["Customer", "CustomerId", "Invoice", "InvoiceId", customer(9001, {})],
    [
      "Genre",
      "GenreId",
      "Track",
      "TrackId",
      "INSERT INTO Genre (GenreId, Name) VALUES (9001, 'Polka')",
    ],
    [
      "MediaType",
      "MediaTypeId",
      "Track",
      "TrackId",
      "INSERT INTO MediaType (MediaTypeId, Name) VALUES (9001, 'Wax')",
    ],
    [
      "Album",
      "AlbumId",
      "Track",
      "TrackId",
      "INSERT INTO Album (AlbumId, Title, ArtistId) VALUES (9001, 'Empty', 1)",
    ],
    ["Invoice", "InvoiceId", "InvoiceLine", "InvoiceLineId", invoice(9001, {})],
  ];
  for (const [parent, key, child, childKey, proof] of joins) {
    add({
      family: "INNER for LEFT",
      reference:
        `SELECT p.${key}, count(c.${childKey}) AS n FROM ${parent} p LEFT JOIN ${child} c ON c.${key} = p.${key} GROUP BY p.${key}`,
      equivalent:
        `SELECT p.${key}, (SELECT count(*) FROM ${child} c WHERE c.${key} = p.${key}) AS n FROM ${parent} p`,
      nearMiss:
        `SELECT p.${key}, count(*) AS n FROM ${parent} p JOIN ${child} c ON c.${key} = p.${key} GROUP BY p.${key}`,
      proof,
    });
  }
  // GROUP BY a name that is unique today instead of the key.
  const groups: [string, string, string, string][] = [
    [
      "Genre",
      "GenreId",
      "Track",
      "INSERT INTO Genre (GenreId, Name) VALUES (9001, 'Rock');\n" + track(9001, { GenreId: 9001 }),
    ],
    [
      "MediaType",
      "MediaTypeId",
      "Track",
      "INSERT INTO MediaType (MediaTypeId, Name) VALUES (9001, 'MPEG audio file');\n" +
      track(9001, { MediaTypeId: 9001 }),
    ],
    [
      "Artist",
      "ArtistId",
      "Album",
      "INSERT INTO Artist (ArtistId, Name) VALUES (9001, 'AC/DC');\nINSERT INTO Album (AlbumId, Title, ArtistId) VALUES (9001, 'Again', 9001)",
    ],
  ];
  for (const [parent, key, child, proof] of groups) {
    add({
      family: "GROUP BY name for key",
      reference:
        `SELECT p.Name, count(*) AS n FROM ${child} c JOIN ${parent} p ON p.${key} = c.${key} GROUP BY p.${key}`,
      equivalent:
        `SELECT p.Name, count(*) AS n FROM ${parent} p JOIN ${child} c ON c.${key} = p.${key} GROUP BY c.${key}`,
      nearMiss:
        `SELECT p.Name, count(*) AS n FROM ${child} c JOIN ${parent} p ON p.${key} = c.${key} GROUP BY p.Name`,
      proof,
    });
  }
  // NULLs: <> leaves NULL rows out, IS NOT keeps them.
  const nulls: [string, string, string, string][] = [
    ["Customer", "Country", "USA", customer(9001, { Country: null })],
    ["Customer", "City", "Paris", customer(9001, { City: null })],
    ["Invoice", "BillingCountry", "Germany", invoice(9001, { BillingCountry: null })],
    ["Track", "GenreId", "1", track(9001, { GenreId: null })],
  ];
  for (const [table, col, value, proof] of nulls) {
    const literal = /^\d+$/.test(value) ? value : q(value);
    add({
      family: "NULL and <>",
      reference: `SELECT count(*) AS n FROM ${table} WHERE ${col} <> ${literal} OR ${col} IS NULL`,
      equivalent: `SELECT count(*) AS n FROM ${table} WHERE ${col} IS NOT ${literal}`,
      nearMiss: `SELECT count(*) AS n FROM ${table} WHERE ${col} <> ${literal}`,
      proof,
    });
  }
  // Years: LIKE 'YYYY-%' for a range (a time of day on the last day).
  for (const year of [2021, 2022, 2023, 2024, 2025]) {
    add({
      family: "date range",
      reference:
        `SELECT round(sum(Total), 2) AS total FROM Invoice WHERE InvoiceDate LIKE '${year}-%'`,
      equivalent:
        `SELECT round(sum(Total), 2) AS total FROM Invoice WHERE substr(InvoiceDate, 1, 5) = '${year}-'`,
      nearMiss:
        `SELECT round(sum(Total), 2) AS total FROM Invoice WHERE InvoiceDate BETWEEN '${year}-01-01' AND '${year}-12-31'`,
      proof: invoice(9001, { InvoiceDate: `${year}-12-31 10:00:00`, Total: 5 }),
    });
    add({
      family: "date boundary",
      reference: `SELECT count(*) AS n FROM Invoice WHERE InvoiceDate < '${year}-06-30'`,
      equivalent: `SELECT count(*) AS n FROM Invoice WHERE NOT (InvoiceDate >= '${year}-06-30')`,
      nearMiss: `SELECT count(*) AS n FROM Invoice WHERE date(InvoiceDate) <= '${year}-06-30'`,
      proof: invoice(9001, { InvoiceDate: `${year}-06-30 00:00:00` }),
    });
  }
  // Aggregates on no rows: MAX gives a row of NULL, ORDER BY ... LIMIT 1 gives none.
  const maxes: [string, string, string][] = [
    ["Track", "Milliseconds", ""],
    ["Invoice", "Total", "DELETE FROM Invoice"],
    ["Track", "Bytes", ""],
    ["Customer", "CustomerId", "DELETE FROM Invoice;\nDELETE FROM Customer"],
  ];
  for (const [table, col, proof] of maxes) {
    add({
      family: "MAX for ORDER BY LIMIT",
      reference: `SELECT max(${col}) AS m FROM ${table}`,
      equivalent: `SELECT (SELECT max(x.${col}) FROM ${table} x) AS m`,
      nearMiss: `SELECT ${col} AS m FROM ${table} ORDER BY ${col} DESC LIMIT 1`,
      proof,
    });
  }
  return out;
}

function shop(): Instance[] {
  const out: Instance[] = [];
  const row = (store: string | null, status: string | null, amount: number | null): string =>
    insert("orders", { store_id: store, status, amount });
  for (const c of [500, 800, 1200, 9900]) {
    const free = c + 1;
    out.push({
      db: "shop",
      family: "boundary >",
      reference: `SELECT count(*) AS total FROM orders WHERE amount > ${free}`,
      equivalent: `SELECT count(*) AS total FROM orders WHERE ${free} < amount`,
      nearMiss: `SELECT count(*) AS total FROM orders WHERE amount >= ${free}`,
      proof: row("s1", "DELIVERED", free),
    });
    out.push({
      db: "shop",
      family: "boundary <",
      reference: `SELECT sum(amount) AS total FROM orders WHERE amount < ${c - 1}`,
      equivalent: `SELECT total(amount) AS total FROM orders WHERE amount < ${
        c - 1
      } HAVING count(*) > 0 UNION ALL SELECT NULL WHERE NOT EXISTS (SELECT 1 FROM orders WHERE amount < ${
        c - 1
      })`,
      nearMiss: `SELECT sum(amount) AS total FROM orders WHERE amount <= ${c - 1}`,
      proof: row("s1", "DELIVERED", c - 1),
    });
  }
  out.push(
    {
      db: "shop",
      family: "missing tenant filter",
      reference:
        "SELECT count(*) AS total FROM orders WHERE store_id = 's1' AND status = 'CANCELLED'",
      equivalent:
        "SELECT count(*) AS total FROM orders WHERE status = 'CANCELLED' AND store_id = 's1'",
      nearMiss: "SELECT count(*) AS total FROM orders WHERE status = 'CANCELLED'",
      proof: row("s2", "CANCELLED", 10),
    },
    {
      db: "shop",
      family: "missing tenant filter",
      reference: "SELECT sum(amount) AS total FROM orders WHERE store_id = 's2' AND amount > 5000",
      equivalent:
        "SELECT sum(o.amount) AS total FROM orders o WHERE o.amount > 5000 AND o.store_id = 's2'",
      nearMiss: "SELECT sum(amount) AS total FROM orders WHERE amount > 5000",
      proof: row("s1", "DELIVERED", 6000),
    },
    {
      db: "shop",
      family: "LIKE for =",
      reference: "SELECT count(*) AS total FROM orders WHERE status = 'DELIVERED'",
      equivalent: "SELECT count(1) AS total FROM orders WHERE status IN ('DELIVERED')",
      nearMiss: "SELECT count(*) AS total FROM orders WHERE status LIKE 'delivered'",
      proof: row("s1", "delivered", 5),
    },
    {
      db: "shop",
      family: "COUNT(col) for COUNT(*)",
      reference: "SELECT count(*) AS total FROM orders",
      equivalent: "SELECT count(1) AS total FROM orders",
      nearMiss: "SELECT count(status) AS total FROM orders",
      proof: row("s1", null, 5),
    },
    {
      db: "shop",
      family: "DISTINCT dropped",
      reference: "SELECT DISTINCT store_id FROM orders WHERE status = 'CANCELLED'",
      equivalent: "SELECT store_id FROM orders WHERE status = 'CANCELLED' GROUP BY store_id",
      nearMiss: "SELECT store_id FROM orders WHERE status = 'CANCELLED'",
      proof: `${row("s1", "CANCELLED", 1)};\n${row("s1", "CANCELLED", 2)}`,
    },
    {
      db: "shop",
      family: "NULL and <>",
      reference:
        "SELECT count(*) AS total FROM orders WHERE status <> 'CANCELLED' OR status IS NULL",
      equivalent: "SELECT count(*) AS total FROM orders WHERE status IS NOT 'CANCELLED'",
      nearMiss: "SELECT count(*) AS total FROM orders WHERE status <> 'CANCELLED'",
      proof: row("s1", null, 5),
    },
    {
      db: "shop",
      family: "BETWEEN",
      reference: "SELECT count(*) AS total FROM orders WHERE amount BETWEEN 600 AND 1300",
      equivalent: "SELECT count(*) AS total FROM orders WHERE amount >= 600 AND amount <= 1300",
      nearMiss: "SELECT count(*) AS total FROM orders WHERE amount > 600 AND amount < 1300",
      proof: row("s1", "DELIVERED", 600),
    },
    {
      db: "shop",
      family: "filter true today",
      reference: "SELECT sum(amount) AS total FROM orders WHERE store_id IN ('s1', 's2')",
      equivalent:
        "SELECT sum(amount) AS total FROM orders WHERE store_id = 's1' OR store_id = 's2'",
      nearMiss: "SELECT sum(amount) AS total FROM orders",
      proof: row("s3", "DELIVERED", 7),
    },
    {
      db: "shop",
      family: "AND/OR precedence",
      reference:
        "SELECT count(*) AS total FROM orders WHERE store_id = 's1' AND (status = 'CANCELLED' OR amount < 600)",
      equivalent:
        "SELECT count(*) AS total FROM orders WHERE (amount < 600 OR status = 'CANCELLED') AND store_id = 's1'",
      nearMiss:
        "SELECT count(*) AS total FROM orders WHERE store_id = 's1' AND status = 'CANCELLED' OR amount < 600",
      proof: row("s2", "DELIVERED", 100),
    },
  );
  return out;
}

function lab(): Instance[] {
  const out: Instance[] = [];
  const add = (i: Omit<Instance, "db">): void => {
    out.push({ db: "lab", ...i, proof: `${LAB_BASE};\n${i.proof}` });
  };
  const order = (id: number, cols: Record<string, string | number | null>): string =>
    insert("orders", {
      id,
      tenant_id: 1,
      email: `o${id}@acme.test`,
      placed_at: "2025-05-01",
      status: "paid",
      note: null,
      coupon: null,
      ...cols,
    });
  for (const status of ["paid", "shipped", "new"]) {
    add({
      family: "missing tenant filter",
      reference: `SELECT count(*) AS n FROM orders WHERE tenant_id = 1 AND status = '${status}'`,
      equivalent:
        `SELECT count(*) AS n FROM orders o WHERE o.status = '${status}' AND o.tenant_id = 1`,
      nearMiss: `SELECT count(*) AS n FROM orders WHERE status = '${status}'`,
      proof: order(100, { tenant_id: 2, status }),
    });
  }
  for (const p of [0.5, 5, 10, 20, 50]) {
    add({
      family: "boundary >",
      reference: `SELECT sku FROM products WHERE tenant_id = 1 AND price > ${p}`,
      equivalent: `SELECT sku FROM products WHERE ${p} < price AND tenant_id = 1`,
      nearMiss: `SELECT sku FROM products WHERE tenant_id = 1 AND price >= ${p}`,
      proof: `INSERT INTO products VALUES (1, 'Z-9', 'Zip', ${p}, 0, NULL)`,
    });
  }
  for (const qty of [3, 5, 20, 50]) {
    add({
      family: "boundary <",
      reference: `SELECT order_id, sku FROM order_items WHERE qty < ${qty}`,
      equivalent: `SELECT order_id, sku FROM order_items WHERE NOT (qty >= ${qty})`,
      nearMiss: `SELECT order_id, sku FROM order_items WHERE qty <= ${qty}`,
      proof: `${order(100, {})};\nINSERT INTO order_items VALUES (100, 1, 'A-1', ${qty}, NULL)`,
    });
  }
  add({
    family: "DISTINCT dropped",
    reference: "SELECT DISTINCT email FROM orders WHERE status = 'shipped' AND id < 6",
    equivalent: "SELECT email FROM orders WHERE id < 6 AND status = 'shipped' GROUP BY email",
    nearMiss: "SELECT email FROM orders WHERE status = 'shipped' AND id < 6",
    proof: `${order(1, { email: "x@acme.test", status: "shipped" })};\n${
      order(2, { email: "x@acme.test", status: "shipped" })
    }`,
  });
  add({
    family: "COUNT(col) for COUNT(*)",
    reference: "SELECT count(*) AS n FROM products WHERE category = 'tools' OR category IS NULL",
    equivalent: "SELECT count(1) AS n FROM products WHERE category IS NULL OR category = 'tools'",
    nearMiss:
      "SELECT count(category) AS n FROM products WHERE category = 'tools' OR category IS NULL",
    proof: "INSERT INTO products VALUES (1, 'Z-9', 'Zip', 1, 0, NULL)",
  });
  add({
    family: "NULL and <>",
    reference: "SELECT count(*) AS n FROM order_items WHERE discount IS NOT 0.1",
    equivalent: "SELECT count(*) AS n FROM order_items WHERE discount <> 0.1 OR discount IS NULL",
    nearMiss: "SELECT count(discount) AS n FROM order_items WHERE discount <> 0.1",
    proof: `${order(100, {})};\nINSERT INTO order_items VALUES (100, 1, 'A-1', 1, NULL)`,
  });
  add({
    family: "INNER for LEFT",
    reference:
      "SELECT p.sku, count(i.order_id) AS n FROM products p LEFT JOIN order_items i ON i.tenant_id = p.tenant_id AND i.sku = p.sku GROUP BY p.tenant_id, p.sku",
    equivalent:
      "SELECT p.sku, (SELECT count(*) FROM order_items i WHERE i.sku = p.sku AND i.tenant_id = p.tenant_id) AS n FROM products p",
    nearMiss:
      "SELECT p.sku, count(*) AS n FROM products p JOIN order_items i ON i.tenant_id = p.tenant_id AND i.sku = p.sku GROUP BY p.tenant_id, p.sku",
    proof: "INSERT INTO products VALUES (1, 'Z-9', 'Zip', 1, 0, NULL)",
  });
  add({
    family: "join on half the key",
    reference:
      "SELECT i.order_id, p.name FROM order_items i JOIN products p ON p.tenant_id = i.tenant_id AND p.sku = i.sku WHERE i.qty > 5",
    equivalent:
      "SELECT i.order_id, p.name FROM products p JOIN order_items i ON i.sku = p.sku AND i.tenant_id = p.tenant_id WHERE i.qty > 5",
    nearMiss:
      "SELECT i.order_id, p.name FROM order_items i JOIN products p ON p.sku = i.sku WHERE i.qty > 5",
    proof: "INSERT INTO products VALUES (2, 'B-2', 'Other bolt', 1, 0, NULL)",
  });
  add({
    family: "coupon IS NOT NULL",
    reference: "SELECT count(*) AS n FROM orders WHERE coupon IS NOT NULL",
    equivalent: "SELECT count(coupon) AS n FROM orders",
    nearMiss: "SELECT count(*) AS n FROM orders WHERE coupon <> ''",
    proof: order(100, { coupon: "" }),
  });
  add({
    family: "date range",
    reference:
      "SELECT count(*) AS n FROM orders WHERE placed_at >= '2025-02-01' AND placed_at < '2025-03-01'",
    equivalent:
      "SELECT count(*) AS n FROM orders WHERE placed_at < '2025-03-01' AND '2025-02-01' <= placed_at",
    nearMiss:
      "SELECT count(*) AS n FROM orders WHERE placed_at BETWEEN '2025-02-01' AND '2025-02-28'",
    proof: order(100, { placed_at: "2025-02-28 18:00" }),
  });
  add({
    family: "filter true today",
    reference:
      "SELECT sum(qty) AS n FROM order_items i JOIN products p ON p.tenant_id = i.tenant_id AND p.sku = i.sku WHERE p.discontinued = 0",
    equivalent:
      "SELECT sum(i.qty) AS n FROM products p JOIN order_items i ON i.sku = p.sku AND i.tenant_id = p.tenant_id WHERE NOT p.discontinued",
    nearMiss: "SELECT sum(qty) AS n FROM order_items",
    proof: `INSERT INTO products VALUES (1, 'Z-9', 'Zip', 1, 1, NULL);\n${
      order(100, {})
    };\nINSERT INTO order_items VALUES (100, 1, 'Z-9', 1, NULL)`,
  });
  add({
    family: "GROUP BY without the tenant",
    reference: "SELECT email, count(*) AS n FROM orders GROUP BY tenant_id, email",
    equivalent: "SELECT o.email, count(o.id) AS n FROM orders AS o GROUP BY o.email, o.tenant_id",
    nearMiss: "SELECT email, count(*) AS n FROM orders GROUP BY email",
    proof: `${order(100, { email: "ann@acme.test" })};\n${
      order(101, { tenant_id: 2, email: "ann@acme.test" })
    }`,
  });
  return out;
}

/**
 * Every instance of the benchmark.
 *
 * @returns the instances, Chinook first
 */
export function instances(): Instance[] {
  return [...chinook(), ...shop(), ...lab(), ...constructedPairs()];
}

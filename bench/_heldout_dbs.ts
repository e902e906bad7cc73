/**
 * The databases of the held-out-style counterexample set
 * (bench/counterexample_heldout.ts): "music" (Chinook-like, with foreign
 * keys), "school" (foreign keys, CHECKs, nullable columns that hold no NULL
 * today) and "shop" (no declared foreign keys, several stores of which one
 * has rows), plus "shop_big", the shop with 300,000 orders. Rows are made by
 * a seeded generator, so every run builds the same files; the data has the
 * coincidences agents' SQL leans on (one tenant, one status absent, no
 * value on the round constants, names unique, a column equal to another).
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";

/** Which database a held-out pair runs on. */
export type HeldoutDb = "music" | "school" | "shop" | "shop_big";

export const MUSIC_SCHEMA = `
CREATE TABLE artist (artist_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE album (
  album_id INTEGER PRIMARY KEY, title TEXT NOT NULL,
  artist_id INTEGER NOT NULL REFERENCES artist (artist_id), released INTEGER
);
CREATE TABLE genre (genre_id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE track (
  track_id INTEGER PRIMARY KEY, name TEXT NOT NULL,
  album_id INTEGER REFERENCES album (album_id), genre_id INTEGER REFERENCES genre (genre_id),
  composer TEXT, milliseconds INTEGER NOT NULL, unit_price NUMERIC(10, 2) NOT NULL
);
CREATE TABLE employee (
  employee_id INTEGER PRIMARY KEY, last_name TEXT NOT NULL, first_name TEXT NOT NULL,
  title TEXT, reports_to INTEGER REFERENCES employee (employee_id), hire_date TEXT
);
CREATE TABLE customer (
  customer_id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
  country TEXT, email TEXT NOT NULL, support_rep_id INTEGER REFERENCES employee (employee_id)
);
CREATE TABLE invoice (
  invoice_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
  invoice_date TEXT NOT NULL, billing_country TEXT, total NUMERIC(10, 2) NOT NULL
);
CREATE TABLE invoice_line (
  invoice_line_id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoice (invoice_id),
  track_id INTEGER NOT NULL REFERENCES track (track_id), unit_price NUMERIC(10, 2) NOT NULL,
  quantity INTEGER NOT NULL
);
CREATE TABLE playlist (playlist_id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE playlist_track (
  playlist_id INTEGER NOT NULL REFERENCES playlist (playlist_id),
  track_id INTEGER NOT NULL REFERENCES track (track_id),
  PRIMARY KEY (playlist_id, track_id)
);
`;

export const SCHOOL_SCHEMA = `
CREATE TABLE department (dept_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, building TEXT);
CREATE TABLE teacher (
  teacher_id INTEGER PRIMARY KEY, name TEXT NOT NULL,
  dept_id INTEGER NOT NULL REFERENCES department (dept_id), salary INTEGER, hired TEXT
);
CREATE TABLE student (
  student_id INTEGER PRIMARY KEY, name TEXT NOT NULL,
  year INTEGER NOT NULL CHECK (year BETWEEN 1 AND 4),
  advisor_id INTEGER REFERENCES teacher (teacher_id), gpa REAL, email TEXT UNIQUE
);
CREATE TABLE course (
  course_id TEXT PRIMARY KEY, title TEXT NOT NULL,
  dept_id INTEGER NOT NULL REFERENCES department (dept_id), credits INTEGER NOT NULL,
  teacher_id INTEGER REFERENCES teacher (teacher_id)
);
CREATE TABLE enrollment (
  student_id INTEGER NOT NULL REFERENCES student (student_id),
  course_id TEXT NOT NULL REFERENCES course (course_id),
  term TEXT NOT NULL, grade INTEGER CHECK (grade BETWEEN 0 AND 100),
  PRIMARY KEY (student_id, course_id, term)
);
`;

export const SHOP_SCHEMA = `
CREATE TABLE store (store_id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL);
CREATE TABLE customer (
  customer_id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, name TEXT NOT NULL,
  email TEXT, vip INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE product (
  product_id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, sku TEXT NOT NULL,
  name TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL, category TEXT,
  UNIQUE (store_id, sku)
);
CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, customer_id INTEGER,
  status TEXT NOT NULL, created_at TEXT NOT NULL, shipped_at TEXT
);
CREATE TABLE order_item (
  order_id INTEGER NOT NULL, product_id INTEGER NOT NULL, qty INTEGER NOT NULL,
  unit_price REAL NOT NULL, PRIMARY KEY (order_id, product_id)
);
CREATE TABLE refund (
  refund_id INTEGER PRIMARY KEY, order_id INTEGER, amount REAL NOT NULL, reason TEXT
);
`;

/** A seeded generator (an LCG), enough to make the same rows every run. */
class Lcg {
  #s: number;
  constructor(seed: number) {
    this.#s = seed;
  }
  next(): number {
    this.#s = (Math.imul(this.#s, 1103515245) + 12345) >>> 0;
    return this.#s / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
}

type Value = string | number | null;

function fill(db: DatabaseSync, table: string, rows: Value[][]): void {
  if (rows.length === 0) return;
  const stmt = db.prepare(
    `INSERT INTO ${table} VALUES (${rows[0]!.map(() => "?").join(", ")})`,
  );
  for (const r of rows) stmt.run(...r);
}

function day(start: number, offset: number): string {
  return new Date(Date.UTC(start, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

const COUNTRIES = ["USA", "Canada", "Brazil", "France", "Germany", "India", "Chile", "Norway"];
const FIRST = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"];
const LAST = ["Ames", "Baker", "Cole", "Diaz", "Ellis", "Ford", "Gray", "Hale", "Irwin", "Judd"];

function music(db: DatabaseSync): void {
  const r = new Lcg(7);
  db.exec(MUSIC_SCHEMA);
  fill(db, "artist", Array.from({ length: 25 }, (_, i) => [i + 1, `Artist ${i + 1}`]));
  fill(
    db,
    "album",
    Array.from({ length: 50 }, (_, i) => [i + 1, `Album ${i + 1}`, (i % 25) + 1, 1971 + i]),
  );
  const genres = ["Rock", "Jazz", "Metal", "Pop", "Blues", "Latin", "Soul", "Folk"];
  fill(db, "genre", genres.map((g, i) => [i + 1, g]));
  const tracks: Value[][] = [];
  for (let i = 1; i <= 500; i++) {
    // No track lasts a round number of seconds: the constants 180000, 240000, ... are never hit.
    const ms = r.int(60, 599) * 1000 + r.int(1, 999);
    tracks.push([
      i,
      `Track ${i}`,
      r.int(1, 50),
      r.int(1, 7), // genre 8 (Folk) has no tracks
      r.next() < 0.2 ? null : `Composer ${r.int(1, 30)}`,
      ms,
      r.next() < 0.8 ? 0.99 : 1.99,
    ]);
  }
  fill(db, "track", tracks);
  fill(db, "employee", [
    [1, "Adams", "Andrew", "General Manager", null, "2002-08-14 00:00:00"],
    [2, "Edwards", "Nancy", "Sales Manager", 1, "2002-05-01 00:00:00"],
    [3, "Peacock", "Jane", "Sales Support Agent", 2, "2002-04-01 00:00:00"],
    [4, "Park", "Margaret", "Sales Support Agent", 2, "2003-05-03 00:00:00"],
    [5, "Johnson", "Steve", "Sales Support Agent", 2, "2003-10-17 00:00:00"],
    [6, "Mitchell", "Michael", "IT Manager", 1, "2003-10-17 00:00:00"],
    [7, "King", "Robert", "IT Staff", 6, "2004-01-02 00:00:00"],
    [8, "Callahan", "Laura", "IT Staff", 6, "2004-03-04 00:00:00"],
  ]);
  const customers: Value[][] = [];
  for (let i = 1; i <= 60; i++) {
    const country = COUNTRIES[i % COUNTRIES.length]!;
    // Every customer of a country has the same support rep, but for the USA.
    const rep = country === "USA" ? 3 + (i % 3) : 3 + (COUNTRIES.indexOf(country) % 3);
    customers.push([i, FIRST[i % 12]!, `${LAST[i % 10]!} ${i}`, country, `c${i}@mail.test`, rep]);
  }
  fill(db, "customer", customers);
  const invoices: Value[][] = [];
  const lines: Value[][] = [];
  let line = 1;
  for (let i = 1; i <= 400; i++) {
    const c = r.int(1, 60);
    // Invoices every 4 or 5 days from 2021: never on the 31st of December.
    let date = day(2021, Math.floor(i * 4.5));
    if (date.endsWith("-12-31")) date = date.replace("-12-31", "-12-30");
    let total = 0;
    const used = new Set<number>();
    for (let k = r.int(1, 6); k > 0; k--) {
      const t = r.int(1, 500);
      if (used.has(t)) continue; // one line per track per invoice today
      used.add(t);
      const price = tracks[t - 1]![6] as number;
      lines.push([line++, i, t, price, 1]);
      total += price;
    }
    invoices.push([i, c, `${date} 00:00:00`, COUNTRIES[c % COUNTRIES.length]!, +total.toFixed(2)]);
  }
  fill(db, "invoice", invoices);
  fill(db, "invoice_line", lines);
  fill(db, "playlist", [[1, "Music"], [2, "Movies"], [3, "90s"], [4, "Grunge"], [5, "Classical"]]);
  const pt = new Set<string>();
  for (let k = 0; k < 700; k++) pt.add(`${r.int(1, 5)},${r.int(1, 500)}`);
  fill(db, "playlist_track", [...pt].map((s) => s.split(",").map(Number)));
}

function school(db: DatabaseSync): void {
  const r = new Lcg(11);
  db.exec(SCHOOL_SCHEMA);
  fill(db, "department", [
    [1, "Mathematics", "North"],
    [2, "Physics", "North"],
    [3, "History", "South"],
    [4, "Biology", "East"],
    [5, "Music", "West"],
  ]);
  const teachers: Value[][] = [];
  for (let i = 1; i <= 20; i++) {
    teachers.push([
      i,
      `Prof ${LAST[i % 10]} ${i}`,
      ((i - 1) % 5) + 1,
      40_000 + r.int(1, 99) * 500 + 250, // never a round thousand
      day(2005, r.int(0, 6000)),
    ]);
  }
  fill(db, "teacher", teachers);
  const students: Value[][] = [];
  for (let i = 1; i <= 240; i++) {
    // GPAs of two decimals, never x.00 or x.50.
    let gpa = r.int(201, 399);
    if (gpa % 50 === 0) gpa += 3;
    students.push([
      i,
      `${FIRST[i % 12]} ${LAST[(i * 7) % 10]} ${i}`,
      r.int(1, 4),
      r.int(1, 20),
      gpa / 100,
      `s${i}@school.edu`,
    ]);
  }
  fill(db, "student", students);
  const courses: Value[][] = [];
  const prefixes = ["MA", "PH", "HI", "BI", "MU"];
  for (let i = 0; i < 35; i++) {
    const dept = (i % 5) + 1;
    // A course is taught by a teacher of its own department; 3 credits each.
    const teacher = dept + 5 * r.int(0, 3);
    courses.push([`${prefixes[dept - 1]}${101 + i}`, `Course ${i + 1}`, dept, 3, teacher]);
  }
  fill(db, "course", courses);
  const enrolled = new Map<string, Value[]>();
  for (let k = 0; k < 1400; k++) {
    const s = r.int(1, 200); // students 201-240 are enrolled in nothing
    const c = courses[r.int(0, 34)]!;
    // Courses MA101-PH107 run in the autumn only.
    const term = Number(String(c[0]).slice(2)) < 108 ? "2024F" : r.pick(["2024F", "2025S"]);
    let grade = r.int(40, 100);
    if (grade % 5 === 0) grade += 1; // no grade on a multiple of 5
    if (grade > 100) grade = 99;
    enrolled.set(`${s}|${c[0]}|${term}`, [s, c[0]!, term, grade]);
  }
  fill(db, "enrollment", [...enrolled.values()]);
}

function shop(db: DatabaseSync, orders: number): void {
  const r = new Lcg(13);
  db.exec(SHOP_SCHEMA);
  db.exec("BEGIN");
  fill(db, "store", [[1, "Main", "north"], [2, "Outlet", "south"], [3, "Online", "web"]]);
  const customers = Math.max(80, Math.floor(orders / 15));
  fill(
    db,
    "customer",
    Array.from({ length: customers }, (_, i) => [
      i + 1,
      1,
      `${FIRST[i % 12]} ${LAST[(i * 3) % 10]} ${i + 1}`,
      `u${i + 1}@shop.test`,
      i % 9 === 0 ? 1 : 0,
    ]),
  );
  const categories = ["toys", "books", "garden", "kitchen"];
  const products: Value[][] = [];
  for (let i = 1; i <= 40; i++) {
    // Prices and stock never on 10, 20, 50, 100 or 5.
    let stock = r.int(0, 150);
    if ([5, 10, 20, 50, 100].includes(stock)) stock += 1;
    const price = r.int(1, 120) + r.pick([0.25, 0.5, 0.75, 0.99]);
    products.push([
      i,
      1,
      `P-${String(i).padStart(3, "0")}`,
      `Product ${i}`,
      price,
      stock,
      categories[i % 4]!,
    ]);
  }
  fill(db, "product", products);
  const o: Value[][] = [];
  const items: Value[][] = [];
  const statuses = ["paid", "shipped", "delivered"];
  for (let i = 1; i <= orders; i++) {
    const status = r.pick(statuses);
    const d = day(2024, r.int(0, 600));
    const created = `${d} ${String(r.int(8, 20)).padStart(2, "0")}:${String(r.int(10, 59))}:00`;
    o.push([
      i,
      1,
      r.int(1, customers),
      status,
      created,
      status === "paid" ? null : `${d} 23:00:00`,
    ]);
    const used = new Set<number>();
    for (let k = r.int(1, 3); k > 0; k--) {
      const p = r.int(1, 40);
      if (used.has(p)) continue;
      used.add(p);
      items.push([i, p, r.int(1, 4), products[p - 1]![4]!]);
    }
  }
  fill(db, "orders", o);
  fill(db, "order_item", items);
  const refunds: Value[][] = [];
  for (let i = 1; i <= 20; i++) {
    refunds.push([i, i * 7, r.int(2, 40) + 0.5, r.pick(["damaged", "late", null])]);
  }
  fill(db, "refund", refunds);
  db.exec("COMMIT");
}

/**
 * Builds one of the databases (once: a file already built is kept).
 *
 * @param dir the folder the files go in
 * @param name which database
 * @returns the file's path
 */
export function heldoutDb(dir: string, name: HeldoutDb): string {
  const file = path.join(dir, `heldout_${name}_v1.db`);
  if (fs.existsSync(file)) return file;
  const tmp = `${file}.${process.pid}.tmp`;
  const db = new DatabaseSync(tmp);
  try {
    if (name === "music") music(db);
    else if (name === "school") school(db);
    else shop(db, name === "shop" ? 300 : 300_000);
  } finally {
    db.close();
  }
  fs.renameSync(tmp, file);
  return file;
}

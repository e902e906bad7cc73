/**
 * The held-out-style pairs on "music", the Chinook-like database.
 *
 * @module
 */
import { type Cols, type HeldoutInstance, ins } from "./_heldout_types.ts";

// music: rows with the parents they need
export const M_BASE = [
  ins("artist", { artist_id: 1, name: "A" }),
  ins("album", { album_id: 1, title: "T", artist_id: 1, released: 2000 }),
  ins("genre", { genre_id: 1, name: "Rock" }),
  ins("employee", { employee_id: 3, last_name: "P", first_name: "J", title: "Agent" }),
  ins("customer", {
    customer_id: 1,
    first_name: "F",
    last_name: "L",
    country: "USA",
    email: "e@x",
    support_rep_id: 3,
  }),
].join(";\n");
export const track = (id: number, c: Cols = {}): string =>
  ins("track", {
    track_id: id,
    name: `t${id}`,
    album_id: 1,
    genre_id: 1,
    composer: null,
    milliseconds: 200001,
    unit_price: 0.99,
    ...c,
  });
export const invoice = (id: number, c: Cols = {}): string =>
  ins("invoice", {
    invoice_id: id,
    customer_id: 1,
    invoice_date: "2022-03-04 00:00:00",
    billing_country: "USA",
    total: 1.98,
    ...c,
  });
export const line = (id: number, c: Cols = {}): string =>
  ins("invoice_line", {
    invoice_line_id: id,
    invoice_id: 1,
    track_id: 1,
    unit_price: 0.99,
    quantity: 1,
    ...c,
  });
export const customer = (id: number, c: Cols = {}): string =>
  ins("customer", {
    customer_id: id,
    first_name: "N",
    last_name: `C${id}`,
    country: "USA",
    email: `n${id}@x`,
    support_rep_id: 3,
    ...c,
  });

/** The music (Chinook-like) pairs. */
export function musicPairs(): HeldoutInstance[] {
  const out: HeldoutInstance[] = [];
  const add = (i: Omit<HeldoutInstance, "db">): void => {
    out.push({ db: "music", ...i, proof: `${M_BASE};\n${i.proof}` });
  };
  for (const c of [180000, 240000, 300000, 360000, 420000]) {
    add({
      cls: "boundary",
      family: "> for >= on a duration",
      reference: `SELECT count(*) AS n FROM track WHERE milliseconds > ${c}`,
      equivalent: `SELECT count(*) AS n FROM track WHERE NOT (milliseconds <= ${c})`,
      nearMiss: `SELECT count(*) AS n FROM track WHERE milliseconds >= ${c}`,
      proof: track(1, { milliseconds: c }),
    });
    add({
      cls: "boundary",
      family: "<= for < in a join",
      reference:
        `SELECT al.title, count(*) AS n FROM track t JOIN album al ON al.album_id = t.album_id WHERE t.milliseconds < ${c} AND t.genre_id = 2 GROUP BY al.album_id`,
      equivalent:
        `SELECT a.title, count(t.track_id) AS n FROM album a JOIN track t ON t.album_id = a.album_id WHERE t.genre_id = 2 AND ${c} > t.milliseconds GROUP BY a.album_id`,
      nearMiss:
        `SELECT al.title, count(*) AS n FROM track t JOIN album al ON al.album_id = t.album_id WHERE t.milliseconds <= ${c} AND t.genre_id = 2 GROUP BY al.album_id`,
      proof: `${ins("genre", { genre_id: 2, name: "Jazz" })};\n${
        track(1, { milliseconds: c, genre_id: 2 })
      }`,
    });
  }
  for (const c of [5, 10, 15]) {
    add({
      cls: "boundary",
      family: "> for >= on a price",
      reference:
        `SELECT invoice_id FROM invoice WHERE total >= ${c} AND billing_country = 'France'`,
      equivalent:
        `SELECT invoice_id FROM invoice WHERE billing_country = 'France' AND ${c} <= total`,
      nearMiss: `SELECT invoice_id FROM invoice WHERE total > ${c} AND billing_country = 'France'`,
      proof: invoice(1, { total: c, billing_country: "France" }),
    });
  }
  for (const k of [4, 6, 16, 17]) {
    add({
      cls: "boundary",
      family: ">= for > on a count",
      reference: `SELECT album_id FROM track GROUP BY album_id HAVING count(*) > ${k}`,
      equivalent:
        `SELECT album_id FROM (SELECT album_id, count(*) AS n FROM track GROUP BY album_id) WHERE n > ${k}`,
      nearMiss: `SELECT album_id FROM track GROUP BY album_id HAVING count(*) >= ${k}`,
      proof: Array.from({ length: k }, (_, i) => track(i + 1)).join(";\n"),
    });
  }
  for (const k of [13, 14, 15, 16]) {
    add({
      cls: "boundary",
      family: "> for >= on a count",
      reference:
        `SELECT c.last_name FROM customer c JOIN invoice i ON i.customer_id = c.customer_id GROUP BY c.customer_id HAVING count(*) >= ${k}`,
      equivalent:
        `SELECT last_name FROM customer c WHERE (SELECT count(*) FROM invoice i WHERE i.customer_id = c.customer_id) >= ${k}`,
      nearMiss:
        `SELECT c.last_name FROM customer c JOIN invoice i ON i.customer_id = c.customer_id GROUP BY c.customer_id HAVING count(*) > ${k}`,
      proof: Array.from({ length: k }, (_, i) => invoice(i + 1)).join(";\n"),
    });
  }
  for (const y of [2021, 2022, 2023, 2024]) {
    add({
      cls: "boundary",
      family: "BETWEEN for a year",
      reference: `SELECT count(*) AS n FROM invoice WHERE invoice_date LIKE '${y}-%'`,
      equivalent: `SELECT count(*) AS n FROM invoice WHERE substr(invoice_date, 1, 5) = '${y}-'`,
      nearMiss:
        `SELECT count(*) AS n FROM invoice WHERE invoice_date BETWEEN '${y}-01-01' AND '${y}-12-31'`,
      proof: invoice(1, { invoice_date: `${y}-12-31 00:00:00` }),
    });
    add({
      cls: "boundary",
      family: "<= the last day for < the next",
      reference: `SELECT count(*) AS n FROM invoice WHERE invoice_date < '${y}-07-01'`,
      equivalent: `SELECT count(*) AS n FROM invoice WHERE NOT (invoice_date >= '${y}-07-01')`,
      nearMiss: `SELECT count(*) AS n FROM invoice WHERE invoice_date <= '${y}-06-30'`,
      proof: invoice(1, { invoice_date: `${y}-06-30 00:00:00` }),
    });
  }
  for (const x of ["France", "Germany", "Chile", "India"]) {
    add({
      cls: "second value",
      family: "the customer's country for the billing country",
      reference: `SELECT sum(i.total) AS revenue FROM invoice i WHERE i.billing_country = '${x}'`,
      equivalent: `SELECT sum(total) AS revenue FROM invoice WHERE '${x}' = billing_country`,
      nearMiss:
        `SELECT sum(i.total) AS revenue FROM invoice i JOIN customer c ON c.customer_id = i.customer_id WHERE c.country = '${x}'`,
      proof: `${customer(2, { country: x })};\n${
        invoice(1, { customer_id: 2, billing_country: "USA" })
      }`,
    });
  }
  const reps: [string, number][] = [["Canada", 4], ["Brazil", 5], ["France", 3], [
    "Germany",
    4,
  ], ["India", 5]];
  for (const [x, rep] of reps) {
    const other = rep === 3 ? 4 : 3;
    const emp = ins("employee", {
      employee_id: other === 3 ? 9 : other,
      last_name: "O",
      first_name: "O",
    });
    add({
      cls: "second value",
      family: "missing support-rep filter",
      reference:
        `SELECT count(*) AS n FROM customer WHERE support_rep_id = ${rep} AND country = '${x}'`,
      equivalent:
        `SELECT count(*) AS n FROM customer c WHERE c.country = '${x}' AND c.support_rep_id = ${rep}`,
      nearMiss: `SELECT count(*) AS n FROM customer WHERE country = '${x}'`,
      proof: `${emp};\n${
        ins("employee", { employee_id: rep, last_name: "R", first_name: "R" })
          .replace("INSERT", "INSERT OR IGNORE")
      };\n${customer(2, { country: x, support_rep_id: other === 3 ? 9 : other })}`,
    });
    add({
      cls: "second value",
      family: "missing support-rep filter through a join",
      reference:
        `SELECT round(sum(i.total), 2) AS s FROM invoice i JOIN customer c ON c.customer_id = i.customer_id WHERE c.support_rep_id = ${rep} AND i.billing_country = '${x}'`,
      equivalent:
        `SELECT round(sum(total), 2) AS s FROM invoice WHERE billing_country = '${x}' AND customer_id IN (SELECT customer_id FROM customer WHERE support_rep_id = ${rep})`,
      nearMiss:
        `SELECT round(sum(i.total), 2) AS s FROM invoice i WHERE i.billing_country = '${x}'`,
      proof: `${customer(2, { support_rep_id: null })};\n${
        invoice(1, { customer_id: 2, billing_country: x })
      }`,
    });
  }
  const notIn: [string, string, string, string, string][] = [
    ["genre", "genre_id", "track", "genre_id", track(1, { genre_id: null })],
    ["album", "album_id", "track", "album_id", track(1, { album_id: null })],
    [
      "employee",
      "employee_id",
      "customer",
      "support_rep_id",
      `${ins("employee", { employee_id: 9, last_name: "N", first_name: "N" })};\n${
        customer(2, { support_rep_id: null })
      }`,
    ],
  ];
  for (const [outer, key, inner, col, proof] of notIn) {
    add({
      cls: "null",
      family: "NOT IN for NOT EXISTS",
      reference:
        `SELECT count(*) AS n FROM ${outer} o WHERE NOT EXISTS (SELECT 1 FROM ${inner} x WHERE x.${col} = o.${key})`,
      equivalent:
        `SELECT count(*) AS n FROM ${outer} o LEFT JOIN ${inner} x ON x.${col} = o.${key} WHERE x.rowid IS NULL`,
      nearMiss:
        `SELECT count(*) AS n FROM ${outer} WHERE ${key} NOT IN (SELECT ${col} FROM ${inner})`,
      proof,
    });
  }
  add({
    cls: "null",
    family: "NOT IN for NOT EXISTS",
    reference:
      "SELECT title FROM album a WHERE NOT EXISTS (SELECT 1 FROM track t WHERE t.album_id = a.album_id AND t.genre_id = 3)",
    equivalent:
      "SELECT title FROM album WHERE album_id NOT IN (SELECT album_id FROM track WHERE genre_id = 3 AND album_id IS NOT NULL)",
    nearMiss:
      "SELECT title FROM album WHERE album_id NOT IN (SELECT album_id FROM track WHERE genre_id = 3)",
    proof: `${ins("genre", { genre_id: 3, name: "M" })};\n${
      track(1, { genre_id: 3, album_id: null })
    }`,
  });
  add({
    cls: "other",
    family: "a filter true today, added (NOT IN on a NOT NULL column)",
    reference:
      "SELECT count(*) AS n FROM track t WHERE NOT EXISTS (SELECT 1 FROM invoice_line l WHERE l.track_id = t.track_id)",
    equivalent:
      "SELECT count(*) AS n FROM track WHERE track_id NOT IN (SELECT track_id FROM invoice_line)",
    nearMiss:
      "SELECT count(*) AS n FROM track t WHERE NOT EXISTS (SELECT 1 FROM invoice_line l WHERE l.track_id = t.track_id AND l.quantity = 1)",
    proof: `${track(1)};\n${invoice(1)};\n${line(1, { quantity: 2 })}`,
  });
  const counts: [string, string, string][] = [
    ["invoice", "billing_country", invoice(1, { billing_country: null })],
    ["employee", "title", ins("employee", { employee_id: 9, last_name: "N", first_name: "N" })],
    ["album", "released", ins("album", { album_id: 2, title: "U", artist_id: 1 })],
    ["customer", "country", customer(2, { country: null })],
  ];
  for (const [t, col, proof] of counts) {
    add({
      cls: "null",
      family: "COUNT(col) for COUNT(*)",
      reference: `SELECT count(*) AS n FROM ${t}`,
      equivalent: `SELECT count(1) AS n FROM ${t}`,
      nearMiss: `SELECT count(${col}) AS n FROM ${t}`,
      proof,
    });
  }
  add({
    cls: "null",
    family: "sum/count for AVG",
    reference: "SELECT round(avg(released), 2) AS y FROM album",
    equivalent: "SELECT round(total(released) / count(released), 2) AS y FROM album",
    nearMiss: "SELECT round(sum(released) * 1.0 / count(*), 2) AS y FROM album",
    proof: ins("album", { album_id: 2, title: "U", artist_id: 1 }),
  });
  const unions: [string, string, string, string][] = [
    ["name", "artist", "artist_id <= 5", "artist_id >= 20"],
    ["title", "album", "released < 1980", "released > 2015"],
    ["last_name", "employee", "title LIKE '%Manager'", "title = 'IT Staff'"],
    ["name", "playlist", "playlist_id = 1", "playlist_id > 3"],
  ];
  const unionProof: Record<string, string> = {
    artist: `${ins("artist", { artist_id: 20, name: "A" })}`,
    album: `${ins("album", { album_id: 2, title: "T", artist_id: 1, released: 1975 })};\n${
      ins("album", { album_id: 3, title: "T", artist_id: 1, released: 2020 })
    }`,
    employee: `${
      ins("employee", { employee_id: 1, last_name: "K", first_name: "A", title: "IT Manager" })
    };\n${ins("employee", { employee_id: 2, last_name: "K", first_name: "B", title: "IT Staff" })}`,
    playlist: `${ins("playlist", { playlist_id: 1, name: "P" })};\n${
      ins("playlist", { playlist_id: 4, name: "P" })
    }`,
  };
  for (const [col, t, a, b] of unions) {
    add({
      cls: "duplicate",
      family: "UNION ALL for UNION",
      reference: `SELECT ${col} FROM ${t} WHERE ${a} UNION SELECT ${col} FROM ${t} WHERE ${b}`,
      equivalent: `SELECT DISTINCT ${col} FROM ${t} WHERE (${a}) OR (${b})`,
      nearMiss: `SELECT ${col} FROM ${t} WHERE ${a} UNION ALL SELECT ${col} FROM ${t} WHERE ${b}`,
      proof: unionProof[t]!,
    });
  }
  add({
    cls: "duplicate",
    family: "UNION ALL for UNION on the largest table",
    reference:
      "SELECT invoice_id, track_id FROM invoice_line WHERE unit_price > 1 UNION SELECT invoice_id, track_id FROM invoice_line WHERE quantity > 1",
    equivalent:
      "SELECT DISTINCT invoice_id, track_id FROM invoice_line WHERE quantity > 1 OR unit_price > 1",
    nearMiss:
      "SELECT invoice_id, track_id FROM invoice_line WHERE unit_price > 1 UNION ALL SELECT invoice_id, track_id FROM invoice_line WHERE quantity > 1",
    proof: `${track(1)};\n${invoice(1)};\n${line(1, { unit_price: 1.99, quantity: 2 })}`,
  });
  const distinct: [string, string, string][] = [
    ["last_name", "employee", ""],
    ["title", "album", "WHERE artist_id = 3"],
    ["name", "genre", ""],
    ["email", "customer", "WHERE country = 'Norway'"],
  ];
  const distinctProof: Record<string, string> = {
    employee: ins("employee", { employee_id: 9, last_name: "P", first_name: "Q" }),
    album: `${ins("artist", { artist_id: 3, name: "C" })};\n${
      ins("album", { album_id: 2, title: "X", artist_id: 3 })
    };\n${ins("album", { album_id: 3, title: "X", artist_id: 3 })}`,
    genre: ins("genre", { genre_id: 2, name: "Rock" }),
    customer: `${customer(2, { country: "Norway", email: "same@x" })};\n${
      customer(3, { country: "Norway", email: "same@x" })
    }`,
  };
  for (const [col, t, where] of distinct) {
    add({
      cls: "duplicate",
      family: "DISTINCT dropped",
      reference: `SELECT DISTINCT ${col} FROM ${t} ${where}`,
      equivalent: `SELECT ${col} FROM ${t} ${where} GROUP BY ${col}`,
      nearMiss: `SELECT ${col} FROM ${t} ${where}`,
      proof: distinctProof[t]!,
    });
  }
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key",
    reference:
      "SELECT ar.name, count(*) AS n FROM album al JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.artist_id",
    equivalent:
      "SELECT ar.name, count(al.album_id) AS n FROM artist ar JOIN album al ON al.artist_id = ar.artist_id GROUP BY al.artist_id",
    nearMiss:
      "SELECT ar.name, count(*) AS n FROM album al JOIN artist ar ON ar.artist_id = al.artist_id GROUP BY ar.name",
    proof: `${ins("artist", { artist_id: 2, name: "A" })};\n${
      ins("album", { album_id: 2, title: "U", artist_id: 2 })
    }`,
  });
  add({
    cls: "duplicate",
    family: "GROUP BY the name for the key",
    reference:
      "SELECT g.name, sum(t.milliseconds) AS ms FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.genre_id",
    equivalent:
      "SELECT g.name, (SELECT sum(milliseconds) FROM track t WHERE t.genre_id = g.genre_id) AS ms FROM genre g WHERE g.genre_id IN (SELECT genre_id FROM track)",
    nearMiss:
      "SELECT g.name, sum(t.milliseconds) AS ms FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name",
    proof: `${ins("genre", { genre_id: 2, name: "Rock" })};\n${track(1)};\n${
      track(2, { genre_id: 2 })
    }`,
  });
  for (const t of [7, 42, 99]) {
    add({
      cls: "duplicate",
      family: "a join that repeats rows for IN",
      reference:
        `SELECT round(sum(i.total), 2) AS s FROM invoice i WHERE i.invoice_id IN (SELECT invoice_id FROM invoice_line WHERE track_id = ${t})`,
      equivalent:
        `SELECT round(sum(i.total), 2) AS s FROM invoice i WHERE EXISTS (SELECT 1 FROM invoice_line l WHERE l.invoice_id = i.invoice_id AND l.track_id = ${t})`,
      nearMiss:
        `SELECT round(sum(i.total), 2) AS s FROM invoice i JOIN invoice_line l ON l.invoice_id = i.invoice_id WHERE l.track_id = ${t}`,
      proof: `${track(t)};\n${invoice(1)};\n${line(1, { track_id: t })};\n${
        line(2, { track_id: t })
      }`,
    });
  }
  add({
    cls: "other",
    family: "COUNT for SUM of a quantity that is 1 today",
    reference: "SELECT track_id, sum(quantity) AS sold FROM invoice_line GROUP BY track_id",
    equivalent: "SELECT track_id, total(quantity) AS sold FROM invoice_line GROUP BY track_id",
    nearMiss: "SELECT track_id, count(*) AS sold FROM invoice_line GROUP BY track_id",
    proof: `${track(1)};\n${invoice(1)};\n${line(1, { quantity: 3 })}`,
  });
  add({
    cls: "other",
    family: "integer division for AVG",
    reference: "SELECT avg(quantity) AS q FROM invoice_line",
    equivalent: "SELECT sum(quantity) * 1.0 / count(*) AS q FROM invoice_line",
    nearMiss: "SELECT sum(quantity) / count(*) AS q FROM invoice_line",
    proof: `${track(1)};\n${invoice(1)};\n${line(1, { quantity: 1 })};\n${
      line(2, { quantity: 2 })
    }`,
  });
  add({
    cls: "other",
    family: "INNER for LEFT",
    reference:
      "SELECT p.name, count(pt.track_id) AS n FROM playlist p LEFT JOIN playlist_track pt ON pt.playlist_id = p.playlist_id GROUP BY p.playlist_id",
    equivalent:
      "SELECT p.name, (SELECT count(*) FROM playlist_track pt WHERE pt.playlist_id = p.playlist_id) AS n FROM playlist p",
    nearMiss:
      "SELECT p.name, count(*) AS n FROM playlist p JOIN playlist_track pt ON pt.playlist_id = p.playlist_id GROUP BY p.playlist_id",
    proof: ins("playlist", { playlist_id: 1, name: "Empty" }),
  });
  add({
    cls: "other",
    family: "INNER for LEFT",
    reference:
      "SELECT ar.name, count(al.album_id) AS n FROM artist ar LEFT JOIN album al ON al.artist_id = ar.artist_id GROUP BY ar.artist_id",
    equivalent:
      "SELECT ar.name, (SELECT count(*) FROM album al WHERE al.artist_id = ar.artist_id) AS n FROM artist ar",
    nearMiss:
      "SELECT ar.name, count(*) AS n FROM artist ar JOIN album al ON al.artist_id = ar.artist_id GROUP BY ar.artist_id",
    proof: ins("artist", { artist_id: 2, name: "Lonely" }),
  });
  for (const [col, t, v] of [["country", "customer", "USA"], ["name", "genre", "Rock"]]) {
    add({
      cls: "other",
      family: "LIKE for =",
      reference: `SELECT count(*) AS n FROM ${t} WHERE ${col} = '${v}'`,
      equivalent: `SELECT count(*) AS n FROM ${t} WHERE ${col} IN ('${v}')`,
      nearMiss: `SELECT count(*) AS n FROM ${t} WHERE ${col} LIKE '${v!.toLowerCase()}'`,
      proof: t === "customer"
        ? customer(2, { country: "usa" })
        : ins("genre", { genre_id: 2, name: "rock" }),
    });
  }
  return out;
}

/**
 * Pairs of the counterexample benchmark that the search missed before it
 * built candidates from the queries' comparisons (each was missed in 300
 * databases by the random strategies alone): a boundary the data does not
 * reach under several other filters, a count a correlated subquery compares,
 * the tenant of the wrong table, NOT IN over a subquery that can yield a
 * NULL, UNION for UNION ALL on the largest table, and a GROUP BY of a name
 * under a filter.
 *
 * @module
 */
import { CH_BASE, customer, insert, invoice, LAB_BASE, track } from "./_pair_rows.ts";
import type { Instance } from "./counterexample_pairs.ts";

function chinook(): Instance[] {
  const out: Instance[] = [];
  const add = (i: Omit<Instance, "db">): void => {
    out.push({ db: "chinook", ...i, proof: `${CH_BASE};\n${i.proof}` });
  };
  for (const c of [10, 20]) {
    const q = (op: string) =>
      `SELECT i.InvoiceId FROM Invoice i JOIN Customer c ON c.CustomerId = i.CustomerId WHERE c.SupportRepId = 4 AND i.Total ${op} ${c} AND i.BillingCountry = 'USA'`;
    add({
      family: "boundary among filters",
      reference: q(">="),
      equivalent:
        `SELECT InvoiceId FROM Invoice WHERE BillingCountry = 'USA' AND ${c} <= Total AND CustomerId IN (SELECT CustomerId FROM Customer WHERE SupportRepId = 4)`,
      nearMiss: q(">"),
      proof: `${customer(9001, { SupportRepId: 4, Country: "USA" })};\n${
        invoice(9001, { CustomerId: 9001, Total: c, BillingCountry: "USA" })
      }`,
    });
  }
  add({
    family: "a correlated count at the boundary",
    reference:
      "SELECT c.LastName FROM Customer c WHERE (SELECT count(*) FROM Invoice i WHERE i.CustomerId = c.CustomerId) >= 8",
    equivalent:
      "SELECT c.LastName FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId GROUP BY c.CustomerId HAVING count(*) >= 8",
    nearMiss:
      "SELECT c.LastName FROM Customer c WHERE (SELECT count(*) FROM Invoice i WHERE i.CustomerId = c.CustomerId) > 8",
    proof: Array.from({ length: 7 }, (_, i) => invoice(9001 + i, {})).join(";\n"),
  });
  for (const [a, b] of [[3, 4], [10, 18]] as const) {
    add({
      family: "UNION ALL for UNION on the largest table",
      reference:
        `SELECT pt.TrackId FROM PlaylistTrack pt WHERE pt.PlaylistId = ${a} UNION SELECT pt.TrackId FROM PlaylistTrack pt WHERE pt.PlaylistId = ${b}`,
      equivalent: `SELECT DISTINCT TrackId FROM PlaylistTrack WHERE PlaylistId IN (${b}, ${a})`,
      nearMiss:
        `SELECT pt.TrackId FROM PlaylistTrack pt WHERE pt.PlaylistId = ${a} UNION ALL SELECT pt.TrackId FROM PlaylistTrack pt WHERE pt.PlaylistId = ${b}`,
      proof: [
        insert("Playlist", { PlaylistId: a, Name: "A" }),
        insert("Playlist", { PlaylistId: b, Name: "B" }),
        track(9001, {}),
        insert("PlaylistTrack", { PlaylistId: a, TrackId: 9001 }),
        insert("PlaylistTrack", { PlaylistId: b, TrackId: 9001 }),
      ].join(";\n"),
    });
  }
  add({
    family: "NOT IN for NOT EXISTS over a filter",
    reference:
      "SELECT a.Title FROM Album a WHERE a.ArtistId = 22 AND NOT EXISTS (SELECT 1 FROM Track t WHERE t.AlbumId = a.AlbumId AND t.MediaTypeId = 2 AND t.UnitPrice > 1)",
    equivalent:
      "SELECT a.Title FROM Album a WHERE a.ArtistId = 22 AND a.AlbumId NOT IN (SELECT t.AlbumId FROM Track t WHERE t.MediaTypeId = 2 AND t.UnitPrice > 1 AND t.AlbumId IS NOT NULL)",
    nearMiss:
      "SELECT a.Title FROM Album a WHERE a.ArtistId = 22 AND a.AlbumId NOT IN (SELECT t.AlbumId FROM Track t WHERE t.MediaTypeId = 2 AND t.UnitPrice > 1)",
    proof: [
      insert("Artist", { ArtistId: 22, Name: "Led Zeppelin" }),
      insert("Album", { AlbumId: 9001, Title: "IV", ArtistId: 22 }),
      insert("MediaType", { MediaTypeId: 2, Name: "AAC" }),
      track(9001, { AlbumId: null, MediaTypeId: 2, UnitPrice: 1.99 }),
    ].join(";\n"),
  });
  add({
    family: "GROUP BY a name under a filter",
    reference:
      "SELECT ar.Name, count(*) AS n FROM Album al JOIN Artist ar ON ar.ArtistId = al.ArtistId WHERE al.Title LIKE 'The %' GROUP BY ar.ArtistId",
    equivalent:
      "SELECT ar.Name, count(al.AlbumId) AS n FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId WHERE al.Title LIKE 'The %' GROUP BY al.ArtistId",
    nearMiss:
      "SELECT ar.Name, count(*) AS n FROM Album al JOIN Artist ar ON ar.ArtistId = al.ArtistId WHERE al.Title LIKE 'The %' GROUP BY ar.Name",
    proof: [
      insert("Artist", { ArtistId: 9001, Name: "AC/DC" }),
      insert("Album", { AlbumId: 9001, Title: "The One", ArtistId: 1 }),
      insert("Album", { AlbumId: 9002, Title: "The Other", ArtistId: 9001 }),
    ].join(";\n"),
  });
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
  add({
    family: "the item's tenant for the order's",
    reference:
      "SELECT count(*) AS n FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.tenant_id = 1 AND i.qty > 1 AND o.status = 'paid' AND i.discount IS NULL",
    equivalent:
      "SELECT count(*) AS n FROM order_items i WHERE i.qty > 1 AND i.discount IS NULL AND i.order_id IN (SELECT id FROM orders WHERE tenant_id = 1 AND status = 'paid')",
    nearMiss:
      "SELECT count(*) AS n FROM order_items i JOIN orders o ON o.id = i.order_id WHERE i.tenant_id = 1 AND i.qty > 1 AND o.status = 'paid' AND i.discount IS NULL",
    proof: `${
      order(100, { tenant_id: 2 })
    };\nINSERT INTO order_items VALUES (100, 1, 'A-1', 2, NULL)`,
  });
  add({
    family: "a correlated count at the boundary",
    reference:
      "SELECT o.email FROM orders o WHERE o.tenant_id = 1 AND (SELECT count(*) FROM order_items i WHERE i.order_id = o.id) >= 3",
    equivalent:
      "SELECT o.email FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.tenant_id = 1 GROUP BY o.id HAVING count(*) >= 3",
    nearMiss:
      "SELECT o.email FROM orders o WHERE o.tenant_id = 1 AND (SELECT count(*) FROM order_items i WHERE i.order_id = o.id) > 3",
    proof: [
      "INSERT INTO products VALUES (1, 'C-3', 'Cable', 7.0, 0, NULL)",
      order(100, {}),
      "INSERT INTO order_items VALUES (100, 1, 'A-1', 1, NULL), (100, 1, 'B-2', 1, NULL), (100, 1, 'C-3', 1, NULL)",
    ].join(";\n"),
  });
  return out;
}

/**
 * @returns the pairs, Chinook first
 */
export function constructedPairs(): Instance[] {
  return [...chinook(), ...lab()];
}

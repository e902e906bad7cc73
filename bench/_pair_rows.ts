/**
 * Rows the pair sets' proofs are written with: INSERT statements with
 * defaults for Chinook's tables and the lab database's base rows.
 *
 * @module
 */

export function q(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

// Chinook rows with the parents they need (INSERT OR IGNORE, so proofs combine).
export const CH_BASE = [
  "INSERT OR IGNORE INTO MediaType (MediaTypeId, Name) VALUES (1, 'MPEG audio file')",
  "INSERT OR IGNORE INTO Genre (GenreId, Name) VALUES (1, 'Rock')",
  "INSERT OR IGNORE INTO Artist (ArtistId, Name) VALUES (1, 'AC/DC')",
  "INSERT OR IGNORE INTO Album (AlbumId, Title, ArtistId) VALUES (1, 'Back in Black', 1)",
  "INSERT OR IGNORE INTO Employee (EmployeeId, LastName, FirstName) VALUES (3, 'Peacock', 'Jane')",
  "INSERT OR IGNORE INTO Employee (EmployeeId, LastName, FirstName) VALUES (4, 'Park', 'Margaret')",
  "INSERT OR IGNORE INTO Customer (CustomerId, FirstName, LastName, Email, Country, City, SupportRepId) VALUES (1, 'Luís', 'Gonçalves', 'luis@x', 'Brazil', 'São José', 3)",
  "INSERT OR IGNORE INTO Invoice (InvoiceId, CustomerId, InvoiceDate, BillingCountry, BillingCity, BillingAddress, Total) VALUES (1, 1, '2023-01-01 00:00:00', 'Brazil', 'São José', 'Av. 1', 1.98)",
].join(";\n");

export function track(id: number, cols: Record<string, string | number | null>): string {
  const all: Record<string, string | number | null> = {
    TrackId: id,
    Name: `Track ${id}`,
    AlbumId: 1,
    MediaTypeId: 1,
    GenreId: 1,
    Milliseconds: 200000,
    Bytes: 6000000,
    UnitPrice: 0.99,
    ...cols,
  };
  return insert("Track", all);
}

export function insert(table: string, cols: Record<string, string | number | null>): string {
  const names = Object.keys(cols);
  const values = names.map((n) => {
    const v = cols[n];
    return v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : q(v);
  });
  return `INSERT INTO ${table} (${names.join(", ")}) VALUES (${values.join(", ")})`;
}

export function customer(id: number, cols: Record<string, string | number | null>): string {
  return insert("Customer", {
    CustomerId: id,
    FirstName: "New",
    LastName: `Customer ${id}`,
    Email: `c${id}@x`,
    Country: "Brazil",
    City: "Rio",
    SupportRepId: 3,
    ...cols,
  });
}

export function invoice(id: number, cols: Record<string, string | number | null>): string {
  return insert("Invoice", {
    InvoiceId: id,
    CustomerId: 1,
    InvoiceDate: "2023-02-01 00:00:00",
    BillingCountry: "Brazil",
    BillingCity: "Rio",
    BillingAddress: "Rua 2",
    Total: 3.96,
    ...cols,
  });
}

export const LAB_BASE = [
  "INSERT INTO tenants VALUES (1, 'acme', 'pro'), (2, 'globex', 'free')",
  "INSERT INTO products VALUES (1, 'A-1', 'Anvil', 25.5, 0, 'tools'), (1, 'B-2', 'Bolt', 0.25, 0, 'parts')",
].join(";\n");

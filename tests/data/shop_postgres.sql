-- A small shop on PostgreSQL: the counterexample search's tests and bench/counterexample_pg.ts.
CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, vip boolean NOT NULL);
CREATE TABLE orders (
  id integer PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id),
  qty integer NOT NULL CHECK (qty >= 0),
  price numeric(8, 2) NOT NULL,
  placed date NOT NULL,
  note text
);
INSERT INTO customers VALUES (1, 'ann', true), (2, 'bob', false), (3, 'cy', false);
INSERT INTO orders VALUES (1, 1, 1, 9.50, '2024-01-05', 'a'), (2, 1, 2, 20.00, '2024-02-01', 'b'),
  (3, 2, 5, 3.25, '2024-02-10', 'c'), (4, 2, 10, 1.00, '2024-03-01', 'd'),
  (5, 2, 7, 4.00, '2024-03-02', 'e');

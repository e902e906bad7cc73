-- The database the db_agent example works on: users with roles, and their
-- to-do items. `users.db` beside this file is built from it by make_db.ts.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'viewer',
  active INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE todos (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  title TEXT NOT NULL,
  done INTEGER NOT NULL DEFAULT 0
);
INSERT INTO users (id, name, email, role) VALUES
  (1, 'alice', 'alice@example.com', 'manager'),
  (2, 'bob', 'bob@example.com', 'editor'),
  (3, 'carol', 'carol@example.com', 'viewer'),
  (4, 'dave', 'dave@example.com', 'admin');
INSERT INTO todos (id, user_id, title, done) VALUES
  (1, 1, 'Review the budget', 0),
  (2, 3, 'Write report', 0),
  (3, 3, 'Book travel', 1);

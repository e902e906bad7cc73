import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import process from "node:process";
import { makeDb, snapshotDir, type TempDir, tempDir } from "../../tests/fixtures.ts";
import { openDatabase, openMemoryDatabase } from "./database.ts";
import { SqliteOpenError, SqliteQueryError } from "../errors.ts";

const dir = tempDir();
after(() => dir.cleanup());

const SCHEMA = `
  CREATE TABLE t (id INTEGER PRIMARY KEY, big INTEGER, data BLOB, name TEXT, r REAL);
  INSERT INTO t VALUES (1, 9007199254740993, x'00ff10', 'héllo 😀', 1.5);
  INSERT INTO t VALUES (2, -9223372036854775808, x'', '', NULL);
`;

describe("openDatabase()", () => {
  it("reads integers beyond 2^53 as bigint and BLOBs as Uint8Array", async () => {
    const file = makeDb(dir.file("values.db"), SCHEMA);
    const db = await openDatabase(file);
    const rows = db.query("SELECT * FROM t ORDER BY id");
    db.close();
    assert.deepEqual(rows, [
      {
        id: 1,
        big: 9007199254740993n,
        data: new Uint8Array([0, 255, 16]),
        name: "héllo 😀",
        r: 1.5,
      },
      { id: 2, big: -9223372036854775808n, data: new Uint8Array(0), name: "", r: null },
    ]);
  });

  it("binds parameters of every type", async () => {
    const db = await openMemoryDatabase();
    const [row] = db.query("SELECT ? AS a, ? AS b, ? AS c, ? AS d, ? AS e", [
      null,
      2,
      2.5,
      9007199254740993n,
      new Uint8Array([1, 2]),
    ]);
    db.close();
    assert.deepEqual(row, {
      a: null,
      b: 2,
      c: 2.5,
      d: 9007199254740993n,
      e: new Uint8Array([1, 2]),
    });
  });

  for (const journal of ["delete", "wal", "wal-pending"] as const) {
    it(`reads the latest commits and touches nothing in ${journal} mode`, async () => {
      const sub = tempDir();
      try {
        const file = makeDb(
          sub.file("j.db"),
          `${SCHEMA} UPDATE t SET name = 'latest' WHERE id = 2;`,
          { journal },
        );
        if (journal === "wal-pending") assert.ok(fs.statSync(`${file}-wal`).size > 0);
        const before = snapshotDir(sub.path);
        const db = await openDatabase(file);
        const rows = db.query("SELECT name FROM t WHERE id = 2");
        db.close();
        assert.deepEqual(rows, [{ name: "latest" }]);
        assert.deepEqual(snapshotDir(sub.path), before);
      } finally {
        sub.cleanup();
      }
    });
  }

  // SQLite keeps a database's -wal beside the real file: through a symlink
  // (to the file or to its folder) the pending commits must still be read.
  const linked: [string, (sub: TempDir, real: string) => string][] = [
    ["a symlink to the file", (sub, real) => {
      fs.symlinkSync(real, sub.file("link.db"));
      return sub.file("link.db");
    }],
    ["a symlinked folder", (sub) => {
      fs.symlinkSync(sub.file("real"), sub.file("dir"));
      return sub.file("dir/j.db");
    }],
  ];
  for (const [name, link] of linked) {
    it(`reads the commits still in the -wal file through ${name}`, async () => {
      const sub = tempDir();
      try {
        fs.mkdirSync(sub.file("real"));
        const real = makeDb(
          sub.file("real/j.db"),
          `${SCHEMA} UPDATE t SET name = 'latest' WHERE id = 2;`,
          { journal: "wal-pending" },
        );
        const path = link(sub, real);
        const before = snapshotDir(sub.file("real"));
        const db = await openDatabase(path);
        const rows = db.query("SELECT name FROM t WHERE id = 2");
        db.close();
        assert.deepEqual(rows, [{ name: "latest" }]);
        assert.deepEqual(snapshotDir(sub.file("real")), before);
      } finally {
        sub.cleanup();
      }
    });
  }

  // Only a journal that starts with the magic is hot; SQLite alone would call
  // any journal with a non-zero first byte hot and refuse to open read-only.
  const HOT = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
  const coldJournals: [string, Uint8Array | "folder"][] = [
    ["an empty journal", new Uint8Array(0)],
    ["a zeroed journal (journal_mode=PERSIST)", new Uint8Array(512)],
    ["a journal whose header the writer has not finished", new Uint8Array(HOT.slice(0, 4))],
    ["a journal of garbage", new Uint8Array(512).fill(0x41)],
    ["a folder named like the journal", "folder"],
  ];
  for (const [name, journal] of coldJournals) {
    it(`reads the database and touches nothing beside ${name}`, async () => {
      const sub = tempDir();
      try {
        const file = makeDb(sub.file("cold.db"), SCHEMA);
        if (journal === "folder") fs.mkdirSync(`${file}-journal`);
        else fs.writeFileSync(`${file}-journal`, journal);
        const before = snapshotDir(sub.path);
        const db = await openDatabase(file);
        const rows = db.query("SELECT count(*) AS n FROM t");
        db.close();
        assert.deepEqual(rows, [{ n: 2 }]);
        assert.deepEqual(snapshotDir(sub.path), before);
      } finally {
        sub.cleanup();
      }
    });
  }

  it("names the hot journal when it turns hot after the file check", async () => {
    const file = makeDb(dir.file("turns-hot.db"), SCHEMA);
    // openDatabase() checks the file synchronously, then awaits the engine.
    const opening = openDatabase(file);
    fs.writeFileSync(`${file}-journal`, Buffer.concat([Buffer.from(HOT), Buffer.alloc(504)]));
    await assert.rejects(opening, (e: unknown) => {
      assert.ok(e instanceof SqliteOpenError);
      assert.equal(e.reason, "hot-journal");
      assert.match(e.message, /hot rollback journal ".*turns-hot\.db-journal"/);
      return true;
    });
  });

  it("opens a WAL database whose -wal file is missing", async () => {
    const file = makeDb(dir.file("nowal.db"), SCHEMA, { journal: "wal" });
    assert.equal(fs.existsSync(`${file}-wal`), false);
    const db = await openDatabase(file);
    assert.equal(db.query("SELECT count(*) AS n FROM t")[0]?.["n"], 2);
    db.close();
  });

  it("opens an empty file beside a stale -wal as an empty database, touching neither", async () => {
    const sub = tempDir();
    try {
      const source = makeDb(sub.file("src.db"), SCHEMA, { journal: "wal-pending" });
      const file = sub.file("empty.db");
      fs.writeFileSync(file, "");
      fs.copyFileSync(`${source}-wal`, `${file}-wal`);
      const before = snapshotDir(sub.path);
      const db = await openDatabase(file);
      assert.deepEqual(db.query("SELECT name FROM sqlite_schema"), []);
      db.close();
      assert.deepEqual(snapshotDir(sub.path), before);
    } finally {
      sub.cleanup();
    }
  });

  it("refuses to write", async () => {
    const file = makeDb(dir.file("ro.db"), SCHEMA);
    const db = await openDatabase(file);
    assert.throws(() => db.exec("DELETE FROM t"), SqliteQueryError);
    assert.throws(() => db.exec("CREATE TABLE u(x)"), SqliteQueryError);
    db.close();
  });

  it("keeps temp tables in memory and creates no file beside the database", async () => {
    const sub = tempDir();
    try {
      const file = makeDb(sub.file("tmp.db"), SCHEMA);
      const before = snapshotDir(sub.path);
      const db = await openDatabase(file);
      db.exec(
        "CREATE TEMP TABLE scratch AS SELECT * FROM t; INSERT INTO scratch SELECT * FROM scratch;",
      );
      assert.equal(db.query("SELECT count(*) AS n FROM scratch")[0]?.["n"], 4);
      db.close();
      assert.deepEqual(snapshotDir(sub.path), before);
    } finally {
      sub.cleanup();
    }
  });

  const bad: [string, () => string, string, RegExp][] = [
    ["a missing path", () => dir.file("missing.db"), "missing", /no such file/],
    ["a directory", () => dir.path, "directory", /is a directory/],
    [
      "a text file",
      () => {
        fs.writeFileSync(dir.file("notes.txt"), "PK\x03\x04 not a database at all");
        return dir.file("notes.txt");
      },
      "not-sqlite",
      /not a SQLite database \(header is "PK\\x03\\x04 not a datab"\)/,
    ],
    [
      "a truncated database",
      () => {
        const file = makeDb(
          dir.file("full.db"),
          `${SCHEMA} CREATE TABLE pad(x); INSERT INTO pad SELECT zeroblob(5000) FROM t;`,
        );
        const bytes = fs.readFileSync(file);
        fs.writeFileSync(dir.file("cut.db"), bytes.subarray(0, 4096 + 100));
        return dir.file("cut.db");
      },
      "truncated",
      /truncated/,
    ],
    [
      "a database with a hot journal",
      () => {
        const file = makeDb(dir.file("hot.db"), SCHEMA);
        fs.writeFileSync(
          `${file}-journal`,
          Buffer.concat([
            Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]),
            Buffer.alloc(504),
          ]),
        );
        return file;
      },
      "hot-journal",
      /hot rollback journal/,
    ],
    [
      "a symlink to a database with a hot journal",
      () => {
        const file = makeDb(dir.file("hot-target.db"), SCHEMA);
        fs.writeFileSync(
          `${file}-journal`,
          Buffer.concat([
            Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]),
            Buffer.alloc(504),
          ]),
        );
        fs.symlinkSync(file, dir.file("hot-link.db"));
        return dir.file("hot-link.db");
      },
      "hot-journal",
      /hot rollback journal ".*hot-target\.db-journal"/,
    ],
    [
      "a database with a damaged page",
      () => {
        const file = makeDb(
          dir.file("damaged.db"),
          `${SCHEMA} CREATE TABLE pad(x); INSERT INTO pad SELECT zeroblob(5000) FROM t;`,
        );
        const bytes = fs.readFileSync(file);
        bytes.fill(0xee, 100, 4096); // page 1 after the header: the schema b-tree
        fs.writeFileSync(dir.file("damaged-copy.db"), bytes);
        return dir.file("damaged-copy.db");
      },
      "corrupt",
      /malformed; the file is damaged, .* or was written by another program while it was read/,
    ],
  ];
  // Root reads any file, so this runs only for other users (chmod cannot stop root).
  it("throws a SqliteOpenError naming the path for a file without read permission", {
    skip: process.getuid?.() === 0,
  }, async () => {
    for (const [name, sql] of [["locked.db", SCHEMA], ["locked-empty.db", ""]] as const) {
      const file = makeDb(dir.file(name), sql);
      fs.chmodSync(file, 0o000);
      await assert.rejects(openDatabase(file), (e: unknown) => {
        assert.ok(e instanceof SqliteOpenError);
        assert.equal(e.reason, "unreadable");
        assert.equal(e.message, `Cannot open "${file}": permission denied; check its permissions`);
        return true;
      });
    }
  });

  for (const [name, make, reason, message] of bad) {
    it(`throws a SqliteOpenError naming the path for ${name}`, async () => {
      const file = make();
      await assert.rejects(openDatabase(file), (e: unknown) => {
        assert.ok(e instanceof SqliteOpenError);
        assert.equal(e.reason, reason);
        assert.equal(e.path, file);
        assert.match(e.message, message);
        assert.ok(e.message.includes(`"${file}"`));
        assert.ok(!e.message.includes("\n"));
        return true;
      });
    });
  }
});

// `wren db migrate` against a real PostgreSQL (a throw-away database), and what `wren serve`
// says when the database is not ready: pending migrations, a database that is not there.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import postgres from "postgres";
import { listMigrations } from "../../src/storage/postgres/migrate.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../src/storage/postgres/testing/temp-database.ts";
import { runWren, serveEnv } from "./run-wren.ts";

describe("wren db migrate", () => {
  let database: TempDatabase;
  before(async () => {
    database = await createTempDatabase({ migrated: false });
  });
  after(async () => {
    await database.drop();
  });

  const env = () => ({ WREN_STORAGE: "postgres", WREN_DATABASE_URL: database.url });

  it("refuses to serve a database with pending migrations, naming the command", async () => {
    const result = await runWren(["serve"], await serveEnv("/nonexistent-unused", env()));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /migration/);
    assert.match(result.stderr, /wren db migrate/);
  });

  it("applies every migration once, then says the database is up to date", async () => {
    const names = (await listMigrations()).map((m) => m.name);
    const first = await runWren(["db", "migrate"], env());
    assert.equal(first.code, 0, first.stderr);
    for (const name of names) assert.match(first.stdout, new RegExp(`applied ${name}`));

    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ name: string }[]>`select name from wren_migrations order by name`;
      assert.deepEqual(
        rows.map((r) => r.name),
        names,
      );
    } finally {
      await sql.end();
    }

    const again = await runWren(["db", "migrate"], env());
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /up to date/);
    assert.doesNotMatch(again.stdout, /applied/);
  });

  it("is refused on the json-file backend", async () => {
    const result = await runWren(["db", "migrate"], {});
    assert.equal(result.code, 2);
    assert.match(result.stderr, /WREN_STORAGE=postgres/);
  });

  it("explains a database that does not exist, without its password", async () => {
    const url = new URL(database.url);
    url.pathname = "/wren_no_such_database";
    url.password = "s3cret-word";
    const result = await runWren(
      ["serve"],
      await serveEnv("/nonexistent-unused", {
        WREN_STORAGE: "postgres",
        WREN_DATABASE_URL: url.toString(),
      }),
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /wren_no_such_database/);
    assert.doesNotMatch(result.stderr, /s3cret-word/);
  });
});

describe("database settings", () => {
  it("want a URL with WREN_STORAGE=postgres", async () => {
    const result = await runWren(["db", "migrate"], { WREN_STORAGE: "postgres" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /WREN_DATABASE_URL/);
  });

  it("refuse a web or worker role on the json-file backend", async () => {
    const result = await runWren(["serve", "--role", "worker"], await serveEnv("/tmp/unused"));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /WREN_STORAGE=postgres/);
  });
});

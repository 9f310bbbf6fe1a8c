// A run's tagged temp databases are swept by dropTempDatabases (test/postgres-pass.ts relies on
// it to leave nothing behind), and only that run's: another tag's database stays.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import postgres from "postgres";
import { ADMIN_URL, createTempDatabase, dropTempDatabases } from "./temp-database.ts";

async function exists(url: string): Promise<boolean> {
  const name = new URL(url).pathname.slice(1);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${name}`;
    return rows.length === 1;
  } finally {
    await admin.end();
  }
}

describe("postgres: temp databases of a tagged run", () => {
  it("drops the run's leftovers and nothing of another run", async () => {
    const tag = randomBytes(4).toString("hex");
    const other = `${tag}x`;
    const left = await createTempDatabase({ tag, migrated: false });
    const kept = await createTempDatabase({ tag: other, migrated: false });
    try {
      const dropped = await dropTempDatabases(tag);
      assert.deepEqual(dropped, [new URL(left.url).pathname.slice(1)]);
      assert.equal(await exists(left.url), false);
      assert.equal(await exists(kept.url), true);
      assert.deepEqual(await dropTempDatabases(tag), []);
    } finally {
      await left.drop();
      await kept.drop();
    }
  });

  it("refuses a tag that is not a plain name", async () => {
    await assert.rejects(dropTempDatabases("a%"), /Not a temp database tag/);
    await assert.rejects(createTempDatabase({ tag: "A_b" }), /Not a temp database tag/);
  });
});

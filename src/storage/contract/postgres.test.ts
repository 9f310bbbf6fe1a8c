// The storage contract against the PostgreSQL backend: one throw-away database for this file,
// emptied before each test (a database per test would cost more than the tests).

import { after } from "node:test";
import { openPostgresStorage } from "../postgres/index.ts";
import { createTempDatabase, type TempDatabase } from "../postgres/testing/temp-database.ts";
import { runStorageContract } from "./storage-contract.ts";

let database: Promise<TempDatabase> | undefined;

after(async () => {
  if (database) await (await database).drop();
});

runStorageContract("postgres", async () => {
  database ??= createTempDatabase();
  const db = await database;
  await db.empty();
  return {
    storage: await openPostgresStorage({ url: db.url, poolMax: 4 }),
    reopen: () => openPostgresStorage({ url: db.url, poolMax: 4 }),
    openPeer: () => openPostgresStorage({ url: db.url, poolMax: 4 }),
    cleanup: async () => {},
  };
});

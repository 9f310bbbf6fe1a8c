// Streaming signals on PostgreSQL (broadcast.ts): signals published while a NOTIFY is under way
// go together in the next statement, still heard in the order published, and each publish
// resolves once its statement is done; a lone signal is its own statement.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import postgres from "postgres";
import type { StreamSignal } from "../../domain/stream-signal.ts";
import { createPostgresBroadcast } from "./broadcast.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

describe("the PostgreSQL broadcast", () => {
  let database: TempDatabase;
  let sql: postgres.Sql;
  let listenerSql: postgres.Sql;
  let notifies = 0;
  before(async () => {
    database = await createTempDatabase({ migrated: false });
    sql = postgres(database.url, {
      max: 2,
      onnotice: () => {},
      debug: (_connection, query) => {
        if (query.includes("pg_notify")) notifies++;
      },
    });
    listenerSql = postgres(database.url, { max: 1, onnotice: () => {} });
  });
  after(async () => {
    await sql.end();
    await listenerSql.end();
    await database.drop();
  });

  it("sends the signals of concurrent publishes in few statements, in order", async () => {
    const publisher = createPostgresBroadcast(sql);
    const hearer = createPostgresBroadcast(listenerSql);
    const heard: StreamSignal[] = [];
    const stop = hearer.subscribe((signal) => heard.push(signal));
    await hearer.listening();

    await publisher.publish({ kind: "delete", statusId: "1" });
    assert.equal(notifies, 1, "a lone signal is a statement of its own");

    const signals: StreamSignal[] = Array.from({ length: 40 }, (_, i) => ({
      kind: "status",
      event: "update",
      statusId: String(i + 2),
    }));
    await Promise.all(signals.map((signal) => publisher.publish(signal)));
    // The first goes at once; the others gather while it runs and go in one more.
    assert.equal(notifies, 3);

    const deadline = Date.now() + 10_000;
    while (heard.length < 41 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(heard, [{ kind: "delete", statusId: "1" }, ...signals]);
    stop();
    await publisher.close();
    await hearer.close();
  });
});

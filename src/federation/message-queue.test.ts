// Fedify's messages on the durable job queue (message-queue.ts): a fan-out's first tries are
// queued with their activity and keys as the payload's shared part, named once per activity
// (ADR 0067), and read back as the messages Fedify queued; retries and held deliveries, and
// records queued whole by an older Wren, are read as they are. On json-file, and on PostgreSQL
// when WREN_TEST_POSTGRES_URL is set (there the shared part is stored once).

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Message } from "@fedify/fedify";
import { createIdGenerator } from "../domain/ids.ts";
import { createDurableQueue } from "../jobs/durable-queue.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { openPostgresStorage } from "../storage/postgres/index.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../storage/postgres/testing/temp-database.ts";
import { createJobMessageQueue, FEDERATION_TASK_JOB, queuedMessage } from "./message-queue.ts";

const clock = { now: () => new Date("2026-11-27T12:00:00.000Z") };
const far = "2100-01-01T00:00:00.000Z";

/** As Fedify's sendActivity builds them: one activity object and keys array for all inboxes. */
function fanOut(inboxes: string[], content: string): Message[] {
  const activity = { "@context": "https://www.w3.org/ns/activitystreams", type: "Create", content };
  const keys = [{ keyId: "https://h.example/users/a#main-key", privateKey: { kty: "RSA" } }];
  return inboxes.map((inbox) => ({
    type: "outbox",
    id: crypto.randomUUID(),
    baseUrl: "https://h.example",
    keys,
    activity,
    activityId: "https://h.example/activities/1",
    activityType: "https://www.w3.org/ns/activitystreams#Create",
    inbox,
    actorIds: ["https://h.example/users/a"],
    started: clock.now().toISOString(),
    attempt: 0,
    headers: {},
    orderingKey: `https://h.example/statuses/1\n${new URL(inbox).origin}`,
    traceContext: {},
  })) as unknown as Message[];
}

function queueTests(name: string, open: () => Promise<Storage>) {
  describe(`federation messages on the job queue (${name})`, () => {
    let storage: Storage;
    before(async () => {
      storage = await open();
    });
    after(() => storage?.close());

    it("names a fan-out's shared part once and reads its messages back as queued", async () => {
      const jobs = createDurableQueue(storage.jobs, clock, createIdGenerator());
      const queue = createJobMessageQueue(jobs, clock);
      const first = fanOut(["https://a.example/inbox", "https://b.example/inbox"], "one");
      const second = fanOut(["https://a.example/inbox"], "two");
      const retry = { ...(second[0] as Message), attempt: 1 } as Message;
      for (const message of [...first, ...second, retry]) {
        await queue.enqueue(message, {
          orderingKey: (message as { orderingKey: string }).orderingKey,
        });
      }
      const claimed = await storage.jobs.claim(far, 10, far, "runner");
      assert.equal(claimed.length, 4);
      assert.ok(claimed.every((job) => job.type === FEDERATION_TASK_JOB));
      const [a, b, c, d] = claimed;
      assert.ok(a?.shared !== undefined && a.shared === b?.shared);
      assert.ok(c?.shared !== undefined && c.shared !== a.shared);
      assert.equal(d?.shared, undefined);
      assert.equal("activity" in (a.payload.message as object), false);
      assert.deepEqual(
        claimed.map((job) => queuedMessage(job.payload)),
        [...first, ...second, retry],
      );
    });

    it("reads a message queued whole (an older Wren's record) as it was", async () => {
      const [message] = fanOut(["https://c.example/inbox"], "three");
      assert.deepEqual(queuedMessage({ message }), message);
    });
  });
}

queueTests("json-file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "wren-message-queue-"));
  const storage = await openJsonFileStorage(dir);
  return { ...storage, close: () => storage.close().then(() => rm(dir, { recursive: true })) };
});

// On the tests' PostgreSQL server (config/test-database.ts), as every PostgreSQL storage test.
let database: TempDatabase | undefined;
queueTests("postgres", async () => {
  database = await createTempDatabase();
  const storage = await openPostgresStorage({ url: database.url });
  return { ...storage, close: () => storage.close().then(() => database?.drop()) };
});

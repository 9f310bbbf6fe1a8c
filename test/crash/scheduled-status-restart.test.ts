// A scheduled status outlives its server process: scheduled over HTTP on a real `wren serve`,
// which is then SIGKILLed; the next process publishes it at its time, once, and a further kill
// and restart publish nothing twice. Mastodon wants a time at least five minutes ahead, so
// while no process holds the data directory the test moves the time a few seconds ahead through
// the rescheduling use case, run on a clock set five minutes back.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { rescheduleStatus } from "../../src/services/scheduled-statuses/reschedule-status.ts";
import { eventually } from "../helpers/federation.ts";
import { freePort } from "../helpers/server.ts";
import {
  type SeededUser,
  seedUsers,
  spawnWren,
  type WrenProcess,
  withOfflineServices,
} from "../helpers/wren-process.ts";

const MINUTE = 60_000;

type Json = { id: string; content: string; created_at: string; scheduled_at: string };

async function api(
  wren: WrenProcess,
  user: SeededUser,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json & Json[] }> {
  const res = await fetch(`${wren.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${user.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Json & Json[] };
}

describe("a scheduled status across killed processes", { timeout: 180_000 }, () => {
  let dataDir: string;
  let port: number;
  let alice: SeededUser;
  let wren: WrenProcess | undefined;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-scheduled-"));
    port = await freePort();
    [alice] = (await seedUsers(dataDir, ["alice"])) as [SeededUser];
  });
  after(async () => {
    await wren?.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  const statuses = async (w: WrenProcess) =>
    (await api(w, alice, "GET", `/api/v1/accounts/${alice.id}/statuses`)).json;

  it("is published at its time by the next process, once", async () => {
    wren = await spawnWren(dataDir, port);
    const scheduledAt = new Date(Date.now() + 10 * MINUTE).toISOString();
    const posted = await api(wren, alice, "POST", "/api/v1/statuses", {
      status: "Written before the crash",
      scheduled_at: scheduledAt,
    });
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
    assert.equal(posted.json.scheduled_at, scheduledAt);
    await wren.kill("SIGKILL");
    wren = undefined;

    // Due in a few seconds: rescheduled as if five minutes ago (the rules want five ahead).
    const due = new Date(Date.now() + 6_000);
    const fiveMinutesBack = { now: () => new Date(Date.now() - 5 * MINUTE) };
    await withOfflineServices(
      dataDir,
      (ctx) => rescheduleStatus(ctx, alice.id, posted.json.id, due),
      fiveMinutesBack,
    );

    wren = await spawnWren(dataDir, port);
    const running = wren;
    if (Date.now() < due.getTime() - 1_000) assert.deepEqual(await statuses(running), []);
    const [published, ...others] = await eventually(
      async () => {
        const list = await statuses(running);
        assert.equal(list.length, 1);
        return list;
      },
      { timeout: 30_000 },
    );
    assert.equal(others.length, 0);
    assert.equal(published?.content, "<p>Written before the crash</p>");
    const late = Date.parse(published?.created_at ?? "") - due.getTime();
    assert.ok(late >= 0 && late < 10_000, `published ${late} ms after its time`);
    // The record goes just after the status is made (the publishing job's last step).
    await eventually(async () => {
      const gone = await api(running, alice, "GET", `/api/v1/scheduled_statuses/${posted.json.id}`);
      assert.equal(gone.status, 404);
    });

    await running.kill("SIGKILL");
    wren = await spawnWren(dataDir, port);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal((await statuses(wren)).length, 1);
  });
});

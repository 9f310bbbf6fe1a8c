// The no-op's references: bare node:http and Hono alone (each also with Wren's other headers)
// must answer the responses recorded from Wren byte for byte (status, type, body), told apart
// signed in and anonymous, or the floor would compare unlike work; and the report judges the no-op
// against issue 21's 80% of bare.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startBareHonoServer, startBareServer } from "../../bench/lib/processes.ts";
import { floorSection } from "../../bench/lib/report.ts";
import type { FloorResult } from "../../bench/scenarios/framework-floor.ts";

const recorded = {
  "GET /api/v1/custom_emojis": { status: 200, type: "application/json", body: "[]" },
  "GET /api/v1/custom_emojis (signed in)": {
    status: 200,
    type: "application/json; charset=utf-8",
    body: '[{"shortcode":"wren"}]',
    headers: [
      ["x-ratelimit-limit", "300"],
      ["vary", "Authorization"],
    ],
  },
  "GET /api/v1/timelines/public?limit=20": { status: 200, type: "application/json", body: "[1]" },
};

describe("the framework floor's reference servers", () => {
  let dir: string;
  const servers: { name: string; url: string; stop(): Promise<void> }[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-floor-test-"));
    const file = join(dir, "responses.json");
    const encoded = Object.fromEntries(
      Object.entries(recorded).map(([key, r]) => [
        key,
        { ...r, body: Buffer.from(r.body).toString("base64") },
      ]),
    );
    await writeFile(file, JSON.stringify(encoded));
    servers.push({ name: "bare node:http", ...(await startBareServer(file)) });
    servers.push({
      name: "bare node:http, Wren's headers",
      ...(await startBareServer(file, { withWrenHeaders: true })),
    });
    servers.push({ name: "Hono alone", ...(await startBareHonoServer(file)) });
    servers.push({
      name: "Hono alone, Wren's headers",
      ...(await startBareHonoServer(file, { withWrenHeaders: true })),
    });
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  it("answers each recorded request with its bytes, by target and by token", async () => {
    for (const server of servers) {
      const ask = async (target: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${server.url}${target}`, { headers });
        return {
          status: res.status,
          type: res.headers.get("content-type"),
          body: await res.text(),
        };
      };
      assert.deepEqual(
        await ask("/api/v1/custom_emojis"),
        { status: 200, type: "application/json", body: "[]" },
        server.name,
      );
      assert.deepEqual(
        await ask("/api/v1/custom_emojis", { authorization: "Bearer t" }),
        { status: 200, type: "application/json; charset=utf-8", body: '[{"shortcode":"wren"}]' },
        server.name,
      );
      assert.equal((await ask("/api/v1/timelines/public?limit=20")).body, "[1]", server.name);
      // The query is part of the recorded target: another one is not the recorded request.
      assert.equal((await ask("/api/v1/timelines/public?limit=40")).status, 404, server.name);
    }
  });

  it("sends Wren's other recorded headers only from the server asked to", async () => {
    for (const server of servers) {
      const res = await fetch(`${server.url}/api/v1/custom_emojis`, {
        headers: { authorization: "Bearer t" },
      });
      await res.arrayBuffer();
      const replayed = server.name.endsWith("Wren's headers");
      assert.equal(res.headers.get("x-ratelimit-limit"), replayed ? "300" : null, server.name);
      assert.equal(res.headers.get("vary"), replayed ? "Authorization" : null, server.name);
    }
  });
});

describe("the bench report's framework floor", () => {
  const result = (wrenToBare: number): FloorResult => ({
    name: "no-op, signed in",
    wrenRps: 100 * wrenToBare,
    honoRps: 75,
    headersRps: 60,
    bareHeadersRps: 85,
    bareRps: 100,
    wrenToBare,
    honoToBare: 0.75,
    headersToBare: 0.6,
    bareHeadersToBare: 0.85,
    wrenToHeaders: wrenToBare / 0.6,
  });
  const row = (section: string[]) =>
    section
      .join("\n")
      .split("\n")
      .find((line) => line.startsWith("| no-op")) ?? assert.fail("no no-op row");

  it("judges the no-op against 80% of bare node:http and shows the references beside it", () => {
    assert.match(
      row(floorSection([result(0.79)])),
      /\| 79% \(79\) +\| 75% \(75\) +\| 60% \(60\) +\| 85% \(85\) +\| 100 +\| 132% +\| missed/,
    );
    assert.match(
      row(floorSection([result(0.8)])),
      /\| 80% \(80\) +\| 75% \(75\) +\| 60% \(60\) +\| 85% \(85\) +\| 100 +\| 133% +\| met/,
    );
  });
});

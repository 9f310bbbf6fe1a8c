// One remote post ingested by copies racing in two processes on one PostgreSQL database, with no
// lock between them (ADR 0080): one status is stored and every copy answers it, its creation is
// announced once, and the poll and attachment each losing copy made are taken away again.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../config/load.ts";
import { makeAccount } from "../../storage/contract/fixtures.ts";
import { connectPostgres } from "../../storage/postgres/connect.ts";
import { twoProcessesOnOneDatabase } from "../../storage/postgres/testing/hooks.ts";
import { createServiceContext } from "../../wiring/service-context.ts";
import type { ServiceContext } from "../context.ts";
import type { RemoteStatusDraft } from "./drafts.ts";
import { ingestRemoteStatus } from "./ingest-remote-status.ts";

const URI = "https://remote.example/notes/1";

const draft: RemoteStatusDraft = {
  uri: URI,
  url: URI,
  contentHtml: "<p>which?</p>",
  spoilerText: "",
  sensitive: false,
  language: null,
  visibility: "public",
  publishedAt: "2025-01-01T00:00:00.000Z",
  updatedAt: null,
  inReplyToUri: null,
  mentionUris: [],
  tags: ["choice"],
  emojis: [],
  media: [
    {
      type: "image",
      url: "https://remote.example/a.png",
      contentType: "image/png",
      description: null,
      blurhash: null,
      meta: null,
      focus: null,
    },
  ],
  poll: {
    options: [
      { title: "a", votesCount: 0 },
      { title: "b", votesCount: 0 },
    ],
    multiple: false,
    expiresAt: "2030-01-01T00:00:00.000Z",
    closed: false,
    votersCount: null,
  },
  quote: null,
  quotePolicy: null,
};

describe("ingesting one remote post from two processes at once (PostgreSQL)", () => {
  const processes = twoProcessesOnOneDatabase();
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-ingest-race-"));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("stores one status, announces it once, and leaves no other copy's poll or media", async () => {
    const config = loadConfig({
      WREN_DATA_DIR: dataDir,
      WREN_PUBLIC_URL: "http://127.0.0.1:9",
      WREN_LOG_LEVEL: "error",
    });
    const contexts = [processes.a, processes.b].map((storage) =>
      createServiceContext(config, storage),
    );
    const author = makeAccount({ id: "7", username: "ann", domain: "remote.example" });
    await processes.a.accounts.put(author);
    const announced: string[] = [];
    for (const ctx of contexts) {
      ctx.events.subscribe("test-created", async (event) => {
        if (event.type === "status.created") announced.push(event.status.id);
      });
    }
    const ingest = (ctx: ServiceContext) =>
      ingestRemoteStatus(ctx, { account: author, draft, inReplyTo: null, mentionIds: [] });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => ingest(contexts[i % 2] as ServiceContext)),
    );

    const stored = await processes.a.statuses.findByUri(URI);
    assert.ok(stored);
    assert.deepEqual(new Set(answers.map((s) => s.id)), new Set([stored.id]));
    assert.deepEqual(announced, [stored.id]);
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      const [counts] = await sql<{ statuses: number; polls: number; media: number }[]>`
        select (select count(*)::int from statuses) as statuses,
               (select count(*)::int from polls) as polls,
               (select count(*)::int from media_attachments) as media`;
      assert.deepEqual(counts, { statuses: 1, polls: 1, media: 1 });
    } finally {
      await sql.end();
    }
    assert.equal((await processes.a.polls.get(stored.pollId ?? ""))?.statusId, stored.id);
    assert.equal((await processes.a.media.get(stored.mediaIds[0] ?? ""))?.statusId, stored.id);
  });
});

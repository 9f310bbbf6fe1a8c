// Properties: hostile ActivityPub documents POSTed to the shared and a personal inbox — unsigned
// or with a forged signature, malformed, huge, deeply nested, of wrong types, not UTF-8 —
// never get a 5xx, the server stays up, and a refused one changes no record file. Signed by a
// real (loopback) actor, hostile activities get past the signature check: still no 5xx, and
// the queued inbox task drops what it cannot use instead of failing.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { signRequest } from "@fedify/fedify";
import fc from "fast-check";
import { readJobJournals } from "../../src/storage/json-file/job-journal.ts";
import {
  AS_CONTEXT,
  type FakeActor,
  type FakePeer,
  startFakePeer,
} from "../federation/fake-peer.ts";
import { activityArb, activityObjectArb } from "./arbitraries.ts";
import {
  assertAlive,
  assertHandledSafely,
  type FuzzTarget,
  type RawRequest,
  send,
  startFuzzTarget,
} from "./harness.ts";
import { checkProperty } from "./settings.ts";

const CONTENT_TYPES = [
  "application/activity+json",
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  "application/json",
  "text/plain",
];

describe("fuzzed inbox deliveries", () => {
  let target: FuzzTarget;
  before(async () => {
    target = await startFuzzTarget();
  });
  after(() => target.close());

  it("never answers 5xx and changes nothing when refusing", async () => {
    const { url, dataDir } = target.server;
    const signature = fc.constantFrom<[string, string][]>(
      [],
      [
        [
          "signature",
          `keyId="http://127.0.0.1:1/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
        ],
        ["date", new Date().toUTCString()],
        ["digest", "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="],
      ],
      [["signature", "garbage"]],
      [
        ["signature-input", 'sig1=("@method");created=1'],
        ["signature", "sig1=:AAAA:"],
      ],
    );
    const deliveries = fc
      .record({
        inbox: fc.constantFrom("/inbox", "/users/alice/inbox", "/users/nobody/inbox"),
        body: activityArb(url),
        contentType: fc.constantFrom(...CONTENT_TYPES),
        signature,
      })
      .map(
        ({ inbox, body, contentType, signature }): RawRequest => ({
          method: "POST",
          path: inbox,
          headers: [["content-type", contentType], ...signature],
          body,
        }),
      );
    await checkProperty(
      fc.asyncProperty(deliveries, (req) => assertHandledSafely(url, dataDir, req, "delivery")),
      100,
    );
  });
});

/**
 * Signs like Mastodon (draft-cavage with Digest, Fedify's signRequest) and sends on a fresh
 * connection: a pooled keep-alive socket the server has just closed would fail the run for
 * nothing.
 */
async function sendSigned(url: string, path: string, activity: unknown, actor: FakeActor) {
  const request = new Request(new URL(path, url), {
    method: "POST",
    headers: { "content-type": "application/activity+json" },
    body: typeof activity === "string" ? activity : JSON.stringify(activity),
  });
  const signed = await signRequest(request, actor.keys.privateKey, new URL(actor.keyId));
  const headers: [string, string][] = [];
  signed.headers.forEach((value, name) => {
    if (name !== "host") headers.push([name, value]);
  });
  const body = new Uint8Array(await signed.arrayBuffer());
  return send(url, { method: "POST", path, headers, body });
}

/** Queued jobs whose last run threw, with their error: an inbox task must drop bad input. */
async function failedJobs(dataDir: string): Promise<string[]> {
  const failed: string[] = [];
  for (const job of (await readJobJournals(dataDir)).jobs.values()) {
    if (job.lastError !== null) failed.push(`${job.type}: ${job.lastError.slice(0, 300)}`);
  }
  return failed;
}

describe("fuzzed signed inbox deliveries", () => {
  let target: FuzzTarget;
  let peer: FakePeer;
  let actor: FakeActor;
  before(async () => {
    // The fake peer serves its actor documents on loopback.
    target = await startFuzzTarget({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    peer = await startFakePeer();
    actor = await peer.actor("mallory");
  });
  after(async () => {
    await peer.close();
    await target.close();
  });

  it("never answers 5xx and its queued tasks drop what they cannot use", async () => {
    const { url, dataDir } = target.server;
    const deliveries = fc.record({
      inbox: fc.constantFrom("/inbox", "/users/alice/inbox"),
      fields: activityObjectArb(url),
      context: fc.boolean(),
      ownId: fc.boolean(),
      objectOnPeer: fc.boolean(),
    });
    await checkProperty(
      fc.asyncProperty(deliveries, async ({ inbox, fields, context, ownId, objectOnPeer }) => {
        const activity: Record<string, unknown> = { ...fields, actor: actor.id };
        if (context) activity["@context"] = AS_CONTEXT;
        if (ownId) activity.id = peer.newId("activities");
        if (objectOnPeer && typeof activity.object === "object" && activity.object !== null) {
          activity.object = { ...activity.object, id: peer.newId(), attributedTo: actor.id };
        }
        // Larger than the body limit: refused before any parsing, as the unsigned runs show.
        fc.pre(JSON.stringify(activity).length < 900_000);
        const shown = JSON.stringify(activity)
          .replace(/(.)\1{20,}/gu, "$1$1$1…")
          .slice(0, 800);
        const res = await sendSigned(url, inbox, activity, actor);
        const text = res.body.toString("utf8").slice(0, 200);
        assert.ok(res.status < 500, `${res.status} ${text}\n  ${inbox} ${shown}`);
        await target.server.wren.jobs.runDue();
        assert.deepEqual(await failedJobs(dataDir), [], `a queued task failed on ${shown}`);
        await assertAlive(url);
      }),
      60,
    );
  });
  it("refuses or drops signed activities nested thousands of levels deep", async () => {
    // JSON-LD expansion recurses and would overflow its stack on such documents: they are
    // refused before Fedify parses them, never a 5xx or a hang.
    const { url, dataDir } = target.server;
    for (const depth of [1000, 10_000]) {
      const head = `{"@context":"${AS_CONTEXT}","id":"${peer.newId("a")}","type":"Create","actor":"${actor.id}","object":`;
      const chain = `${'{"type":"Note","inReplyTo":'.repeat(depth)}"x"${"}".repeat(depth)}}`;
      const tags = `{"id":"${peer.newId()}","type":"Note","attributedTo":"${actor.id}","content":"hi","tag":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
      for (const body of [head + chain, head + tags]) {
        const res = await sendSigned(url, "/inbox", body, actor);
        // Refused before parsing (src/federation/inbox/nesting-guard.ts).
        assert.equal(res.status, 400, `depth ${depth}: ${res.status} ${res.body.toString("utf8")}`);
        await target.server.wren.jobs.runDue();
        assert.deepEqual(await failedJobs(dataDir), [], `depth ${depth}`);
        await assertAlive(url);
      }
    }
  });
});

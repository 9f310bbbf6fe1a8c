// Fan-out (issue 7): one public status of a local account whose followers live on many remote
// servers, from the POST /api/v1/statuses until every server has verified and recorded the
// Create. Fedify prefers shared inboxes, so N servers mean N deliveries, each signed by Wren.
// Reference: the same number of signatures made in a plain loop with Fedify's signRequest and
// the same RSA key — the part of the work no server can skip.

import type { webcrypto } from "node:crypto";
import { signRequest } from "@fedify/fedify";
import type { Peers } from "../lib/peers.ts";
import type { FederationSeeded } from "../lib/seed-federation.ts";
import { median } from "../lib/stats.ts";

export interface FanoutResult {
  servers: number;
  followers: number;
  /** Median seconds from the POST until the last server had the activity. */
  seconds: number;
  /** Median seconds from the POST until the first server had it (the queueing before sending). */
  firstSeconds: number;
  rounds: number[];
  /** Median seconds of signing one request per server in a loop (the reference). */
  signSeconds: number;
  /** signSeconds / seconds: the share of the delivery time that signing alone needs. */
  ratio: number;
}

/** A Create of about the size Wren sends, to sign `count` times (one per server). */
async function signingLoop(
  peers: Peers,
  seeded: FederationSeeded,
  key: webcrypto.CryptoKey,
): Promise<number> {
  const keyId = new URL(`${seeded.viewerUri}#main-key`);
  const body = JSON.stringify({
    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
    id: `${seeded.viewerUri}/statuses/1/activity`,
    type: "Create",
    actor: seeded.viewerUri,
    published: new Date().toISOString(),
    to: ["https://www.w3.org/ns/activitystreams#Public"],
    cc: [`${seeded.viewerUri}/followers`],
    object: {
      id: `${seeded.viewerUri}/statuses/1`,
      type: "Note",
      attributedTo: seeded.viewerUri,
      content: "<p>Fan-out bench: one post to every follower's server</p>",
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      cc: [`${seeded.viewerUri}/followers`],
    },
  });
  const started = performance.now();
  for (const server of peers.servers) {
    const request = new Request(`${server.origin}/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body,
    });
    await signRequest(request, key, keyId);
  }
  return (performance.now() - started) / 1000;
}

async function postStatus(wrenUrl: string, token: string, text: string): Promise<string> {
  const res = await fetch(`${wrenUrl}/api/v1/statuses`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: text, visibility: "public" }),
  });
  if (!res.ok) throw new Error(`POST /api/v1/statuses: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { uri: string }).uri;
}

export async function measureFanout(
  wrenUrl: string,
  peers: Peers,
  seeded: FederationSeeded,
  options: {
    rounds: number;
    timeoutSeconds: number;
    /** Called right before each measured round's POST and right after its last arrival. */
    aroundRound?: { before(): Promise<void>; after(): Promise<void> };
  },
): Promise<FanoutResult> {
  const timeout = options.timeoutSeconds * 1000;
  // The Create's id is the status's uri + "/activity" (activity-ids convention).
  const post = async (text: string) => `${await postStatus(wrenUrl, seeded.token, text)}/activity`;
  // Not measured: servers whose accounts follow ours have heard from us before (Wren has
  // learnt which signature spec each one takes, a one-time write per server).
  await peers.arrival(await post("Fan-out bench, warm-up"), timeout);
  const rounds: number[] = [];
  const firsts: number[] = [];
  const signing: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    // Alternate which goes first, as the other comparisons do.
    if (round % 2 === 0) signing.push(await signingLoop(peers, seeded, seeded.viewerKey));
    await options.aroundRound?.before();
    const started = Date.now();
    const { first, last } = await peers.arrival(
      await post(`Fan-out bench, round ${round + 1}`),
      timeout,
    );
    await options.aroundRound?.after();
    rounds.push((last - started) / 1000);
    firsts.push((first - started) / 1000);
    if (round % 2 === 1) signing.push(await signingLoop(peers, seeded, seeded.viewerKey));
  }
  const seconds = median(rounds);
  const signSeconds = median(signing);
  return {
    servers: peers.servers.length,
    followers: seeded.followers,
    seconds,
    firstSeconds: median(firsts),
    rounds,
    signSeconds,
    ratio: signSeconds / seconds,
  };
}

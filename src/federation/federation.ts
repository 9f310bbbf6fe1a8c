// Builds Wren's Fedify federation: durable key–value store, actor keys, dispatchers, and the
// settings DESIGN §5 asks for. main.ts hands `fetch` to the HTTP layer, which calls it before
// its own routes; whatever Fedify does not own (or a browser asking for HTML) goes on to Hono.

import {
  CircuitBreaker,
  type Context,
  createFederation,
  type Federation,
  type Message,
} from "@fedify/fedify";
import { getUserAgent } from "@fedify/vocab-runtime";
import type { ServiceContext } from "../services/context.ts";
import { registerActor } from "./actor.ts";
import { registerCollections } from "./collections/index.ts";
import { hostMeta } from "./host-meta.ts";
import { checkInboxPost, runWithSigner } from "./inbox/accept.ts";
import { answerInboxFailure, INBOX_PATH } from "./inbox/failure.ts";
import { registerInbox } from "./inbox/index.ts";
import { keepLoaders } from "./kept-loaders.ts";
import { createActorKeys } from "./keys.ts";
import { createFedifyKv } from "./kv.ts";
import { createJobMessageQueue } from "./message-queue.ts";
import { registerNodeInfo } from "./nodeinfo.ts";
import { nodeInfo20 } from "./nodeinfo-2-0.ts";
import { goneStatusResponse, registerObjects } from "./objects.ts";
import { createMessageDelivery } from "./outbox/deliver-message.ts";
import {
  DEFAULT_DELIVERY_TIMING,
  type DeliveryTiming,
  outboxCircuitBreaker,
  outboxRetryPolicy,
} from "./outbox/delivery-policy.ts";
import { CIRCUIT_KV_PREFIX, createHeldDeliveries } from "./outbox/held-deliveries.ts";
import { subscribeOutbox } from "./outbox/index.ts";
import { createSigningKeys } from "./outbox/signing-keys.ts";
import { registerQuoteStamps } from "./quotes/stamps.ts";
import { routePath } from "./route-path.ts";
import { keepAliveAgents, remoteFetchOptions } from "./safe-fetch.ts";
import { canonicalWebFingerSubject } from "./webfinger-subject.ts";

export type FederationFetch = (
  request: Request,
  next: () => Promise<Response>,
) => Promise<Response>;

export interface WrenFederation {
  federation: Federation<ServiceContext>;
  /** Answers the requests Fedify owns; calls `next` for all others. */
  fetch: FederationFetch;
  /** Runs one queued federation task (the job runner's handler for FEDERATION_TASK_JOB). */
  runTask(message: Message): Promise<void>;
}

export interface WrenFederationOptions {
  /** Lets Fedify fetch private and loopback addresses (tests with several local instances). */
  allowPrivateAddress?: boolean;
  /** Retry and probe delays of deliveries (WREN_DELIVERY_*); tests compress them. */
  delivery?: DeliveryTiming;
}

export function createWrenFederation(
  ctx: ServiceContext,
  options: WrenFederationOptions = {},
): WrenFederation {
  const kv = createFedifyKv(ctx.storage.kv, ctx.clock);
  const timing = options.delivery ?? DEFAULT_DELIVERY_TIMING;
  const held = createHeldDeliveries(ctx.jobs, kv, timing.firstRetryMs);
  const queue = createJobMessageQueue(ctx.jobs, ctx.clock, held);
  const circuitBreaker = outboxCircuitBreaker(timing, held);
  const retryPolicy = outboxRetryPolicy(timing);
  const allowPrivateAddress = options.allowPrivateAddress ?? false;
  const federation = createFederation<ServiceContext>({
    kv,
    // URLs and handles come from the configured public URL, never from the request's Host.
    origin: ctx.settings.publicUrl,
    // Remote documents are fetched under the SSRF guard (safe-fetch.ts) with caps on redirects,
    // bytes and time, unless private addresses are allowed (tests of local instances only).
    ...remoteFetchOptions({
      publicUrl: ctx.settings.publicUrl,
      allowPrivateAddress,
      kv,
    }),
    outboxRetryPolicy: retryPolicy,
    circuitBreaker,
    // Pinned: held-deliveries.ts reads the circuit state there.
    kvPrefixes: { circuitBreaker: CIRCUIT_KV_PREFIX },
    // Fan-out, deliveries and inbox processing all go through Wren's durable job queue; the job
    // runner hands tasks back through runTask, so Fedify's own worker is never started.
    queue,
    manuallyStartQueue: true,
    // Every route also answers with a trailing slash (`/nodeinfo/2.1/`, `/users/alice/`), as the
    // HTTP layer's routes do; see route-path.ts for the documents served around the router.
    trailingSlashInsensitive: true,
  });
  keepLoaders(federation);
  registerActor(federation, createActorKeys(ctx.storage.kv, ctx.clock));
  registerNodeInfo(federation);
  registerInbox(federation);
  registerObjects(federation);
  registerQuoteStamps(federation);
  registerCollections(federation);
  // Local acts (domain events) become deliveries to peers; see outbox/index.ts.
  subscribeOutbox(federation, ctx);

  // Queued deliveries are sent by Wren (outbox/deliver-message.ts, ADR 0040), on the circuit
  // state Fedify's breaker keeps (same entries, same options).
  const deliver = createMessageDelivery({
    circuit: new CircuitBreaker({ kv, prefix: CIRCUIT_KV_PREFIX, options: circuitBreaker }),
    retryPolicy,
    queue,
    keys: createSigningKeys(),
    transport: {
      // A fan-out reaches each server once; steady traffic to big servers reuses connections.
      agents: keepAliveAgents({ maxSockets: 8, idleMs: 15_000 }),
      userAgent: getUserAgent({ software: "Wren", url: new URL(ctx.settings.publicUrl) }),
      allowPrivateAddress,
    },
  });

  // The signer gate's context, built once: it needs the loaders and the data, nothing of the
  // request, and each new context builds its document loaders anew.
  let gate: Context<ServiceContext> | undefined;
  const gateContext = () => {
    gate ??= federation.createContext(new URL(ctx.settings.publicUrl), ctx);
    return gate;
  };

  return {
    federation,
    async fetch(request, next) {
      const meta = hostMeta(request, ctx.settings.publicUrl);
      if (meta) return meta;
      const legacy = await nodeInfo20(request, ctx.settings.publicUrl, (r) =>
        federation.fetch(r, { contextData: ctx }),
      );
      if (legacy) return legacy;
      const path = request.method === "POST" ? routePath(request) : "";
      let forFedify = request;
      if (INBOX_PATH.test(path)) {
        // Refused, or verified and queued, before Fedify's handler (inbox/accept.ts); else the
        // request again, its body read once already.
        const early = await checkInboxPost(ctx, queue, request, path, gateContext).catch(
          (error) => ({ answer: answerInboxFailure(request, error) }),
        );
        if ("answer" in early) return early.answer;
        forFedify = early.fedify;
      }
      const response = await federation
        .fetch(forFedify, {
          contextData: ctx,
          // A deleted status answers 410 with a Tombstone, which Fedify's object handler cannot.
          onNotFound: async (req) => (await goneStatusResponse(ctx, req)) ?? next(),
          // A browser asking for an actor or a note gets the web page the HTTP layer serves.
          onNotAcceptable: next,
        })
        // Hostile inbox input that Fedify cannot process is answered 400, never 500.
        .catch((error) => answerInboxFailure(request, error));
      return canonicalWebFingerSubject(request, response, ctx.settings);
    },
    async runTask(message) {
      if (message.type === "outbox") return deliver(message);
      return runWithSigner(message, () => federation.processQueuedTask(ctx, message));
    },
  };
}

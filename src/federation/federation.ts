// Builds Wren's Fedify federation: durable key–value store, actor keys, dispatchers, and the
// settings DESIGN §5 asks for. main.ts hands `fetch` to the HTTP layer, which calls it before
// its own routes; whatever Fedify does not own (or a browser asking for HTML) goes on to Hono.

import {
  createExponentialBackoffPolicy,
  createFederation,
  type Federation,
  type Message,
} from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import type { ServiceContext } from "../services/context.ts";
import { registerActor } from "./actor.ts";
import { hostMeta } from "./host-meta.ts";
import { createActorKeys } from "./keys.ts";
import { createFedifyKv } from "./kv.ts";
import { createJobMessageQueue } from "./message-queue.ts";
import { registerNodeInfo } from "./nodeinfo.ts";

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
}

/**
 * As patient as Mastodon, which keeps retrying a delivery for about two and a half days:
 * exponential backoff from a minute, capped at twelve hours between attempts, 16 attempts.
 */
export const OUTBOX_RETRY_POLICY = createExponentialBackoffPolicy({
  maxAttempts: 16,
  initialDelay: Temporal.Duration.from({ minutes: 1 }),
  maxDelay: Temporal.Duration.from({ hours: 12 }),
});

export function createWrenFederation(
  ctx: ServiceContext,
  options: WrenFederationOptions = {},
): WrenFederation {
  const federation = createFederation<ServiceContext>({
    kv: createFedifyKv(ctx.storage.kv, ctx.clock),
    // URLs and handles come from the configured public URL, never from the request's Host.
    origin: ctx.settings.publicUrl,
    allowPrivateAddress: options.allowPrivateAddress ?? false,
    outboxRetryPolicy: OUTBOX_RETRY_POLICY,
    // Fan-out, deliveries and inbox processing all go through Wren's durable job queue; the job
    // runner hands tasks back through runTask, so Fedify's own worker is never started.
    queue: createJobMessageQueue(ctx.jobs, ctx.clock),
    manuallyStartQueue: true,
    userAgent: { software: "Wren", url: new URL(ctx.settings.publicUrl) },
  });
  registerActor(federation, createActorKeys(ctx.storage.kv, ctx.clock));
  registerNodeInfo(federation);

  return {
    federation,
    async fetch(request, next) {
      const meta = hostMeta(request, ctx.settings.publicUrl);
      if (meta) return meta;
      return federation.fetch(request, {
        contextData: ctx,
        onNotFound: next,
        // A browser asking for an actor or a note gets the web page the HTTP layer serves.
        onNotAcceptable: next,
      });
    },
    runTask(message) {
      return federation.processQueuedTask(ctx, message);
    },
  };
}

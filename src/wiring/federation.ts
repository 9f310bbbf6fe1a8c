// Builds the federation over the services. Its own module so that the `wren` commands that do
// not reach other servers never load Fedify (ADR 0053).

import type { Config } from "../config/schema.ts";
import { createArchiveDocuments } from "../federation/archive-documents.ts";
import { createWrenFederation } from "../federation/federation.ts";
import { createLinkFetcher } from "../federation/link-fetcher.ts";
import { createPushSender } from "../federation/push-sender.ts";
import { createRemoteResolver } from "../federation/resolver.ts";
import type { ServiceContext } from "../services/context.ts";

/**
 * Builds the federation over the services: it subscribes the outbox to their events, and the
 * services reach other servers through it (search with resolve, mentions, moves) and fetch
 * linked pages under the same address guard. Also for commands that run without a server and
 * need either (their activities wait in the durable queue for the server).
 */
export function attachFederation(
  config: Config,
  ctx: ServiceContext,
): ReturnType<typeof createWrenFederation> {
  const federation = createWrenFederation(ctx, {
    allowPrivateAddress: config.allowPrivateAddresses,
    delivery: {
      firstRetryMs: config.deliveryRetrySeconds * 1000,
      probeMs: config.deliveryProbeSeconds * 1000,
    },
  });
  ctx.remote = createRemoteResolver(federation.federation, ctx);
  ctx.archiveDocuments = createArchiveDocuments(federation.federation, ctx);
  ctx.links = createLinkFetcher({
    publicUrl: config.publicUrl,
    allowPrivateAddress: config.allowPrivateAddresses,
  });
  // Web Push messages go to the endpoints apps gave, under the same guard.
  ctx.push = createPushSender(ctx, { allowPrivateAddress: config.allowPrivateAddresses });
  return federation;
}

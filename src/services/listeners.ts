// Subscribes the in-process reactions to domain events (notifications, conversations; later the
// federation outbox). src/wiring/service-context.ts calls this once per service context. The
// names are recorded with each event (services/events.ts): renaming a listener orphans the
// retries of the old name.

import { previewCardListener } from "./cards/fetch-card.ts";
import type { ServiceContext } from "./context.ts";
import { conversationListener } from "./conversations/listener.ts";
import { domainBlockListener } from "./graph/domain-block-sever.ts";
import { endorsementListener } from "./graph/endorse.ts";
import { listMembershipListener } from "./lists/listener.ts";
import { mediaPurgeListener } from "./media/purge-deleted-status-media.ts";
import { accountMoveListener } from "./moves/listener.ts";
import { notificationListener } from "./notifications/listener.ts";
import { notificationRequestListener } from "./notifications/request-listener.ts";
import { quoteListener } from "./quotes/listener.ts";
import { streamingListener } from "./streaming/listener.ts";

export function subscribeListeners(ctx: ServiceContext): void {
  ctx.events.subscribe("conversations", conversationListener(ctx));
  ctx.events.subscribe("notifications", notificationListener(ctx));
  ctx.events.subscribe("media-purge", mediaPurgeListener(ctx));
  ctx.events.subscribe("list-memberships", listMembershipListener(ctx));
  ctx.events.subscribe("domain-block-sever", domainBlockListener(ctx));
  ctx.events.subscribe("notification-requests", notificationRequestListener(ctx));
  ctx.events.subscribe("endorsements", endorsementListener(ctx));
  // After conversations (a direct message's conversation is stored before its stream event)
  // and before preview cards (a slow linked page must not hold a post's stream event back).
  ctx.events.subscribe("streaming", streamingListener(ctx));
  ctx.events.subscribe("preview-cards", previewCardListener(ctx));
  ctx.events.subscribe("account-moves", accountMoveListener(ctx));
  ctx.events.subscribe("quotes", quoteListener(ctx));
}

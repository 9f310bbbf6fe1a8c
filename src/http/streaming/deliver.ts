// What one signal becomes on the connected streams. Each signal is rendered as the REST API gives
// it to the viewer (their favourited, bookmarked, filtered…), once per viewer and filter context
// however many connections and subscriptions they hold (statuses: once per distinct rendering,
// deliver-status.ts), then sent to every subscription that takes it.

import type { StreamSignal } from "../../domain/stream-signal.ts";
import { serializeAnnouncement } from "../../serialization/mastodon/announcement.ts";
import { isActive } from "../../services/announcements/schedule.ts";
import type { ServiceContext } from "../../services/context.ts";
import { getNotification } from "../../services/notifications/single-notification.ts";
import { mayHaveShown, resolveSignalled } from "../../services/streaming/audience.ts";
import { isPublicStream, publicStreamTakes } from "../../services/streaming/streams.ts";
import { loadAnnouncementViews } from "../../views/announcement-view.ts";
import { urlContext } from "../mastodon/account-json.ts";
import { renderNotifications } from "../mastodon/notification-json.ts";
import type { StreamClient } from "./client.ts";
import { deliverStatus } from "./deliver-status.ts";
import { deliverInChunks, type Outgoing, type Specs, specsOf } from "./outgoing.ts";

/** The connected clients of each viewer (account id). */
export type ClientsByViewer = ReadonlyMap<string, ReadonlySet<StreamClient>>;

export async function deliverSignal(
  ctx: ServiceContext,
  signal: StreamSignal,
  clients: ClientsByViewer,
): Promise<void> {
  switch (signal.kind) {
    case "status": {
      if (clients.size === 0) return;
      const item = await resolveSignalled(ctx, signal.statusId);
      if (!item) return;
      return deliverStatus(ctx, clients, item, signal.event);
    }
    case "delete": {
      if (clients.size === 0) return;
      const status = await ctx.storage.statuses.get(signal.statusId);
      if (!status) return;
      const asShown = { ...status, deleted: false };
      return eachViewer(clients, async (viewerId, specs) => {
        const out: Outgoing[] = [];
        for (const [key, spec] of specs) {
          const told = isPublicStream(spec.name)
            ? publicStreamTakes(spec, asShown)
            : (spec.name === "user" || spec.name === "list") &&
              (await mayHaveShown(ctx, viewerId, status, spec.list));
          if (told) out.push({ key, event: "delete", payload: status.id });
        }
        return out;
      });
    }
    case "notification": {
      const mine = only(clients, signal.accountId);
      if (mine.size === 0) return;
      const shown = await getNotification(ctx, signal.accountId, signal.notificationId).catch(
        () => undefined,
      );
      if (!shown) return;
      const [json] = await renderNotifications(ctx, [shown], signal.accountId);
      if (!json) return;
      const payload = JSON.stringify(json);
      return eachViewer(mine, async (_viewerId, specs) =>
        notificationEvents(specs, "notification", payload),
      );
    }
    case "notifications_merged":
      return eachViewer(only(clients, signal.accountId), async (_viewerId, specs) =>
        notificationEvents(specs, "notifications_merged", "1"),
      );
    case "filters_changed":
      return eachViewer(only(clients, signal.accountId), async (_viewerId, specs) =>
        onUserStreams(specs, "filters_changed", undefined),
      );
    case "sessions_revoked":
      for (const client of [...(clients.get(signal.accountId) ?? [])]) client.close();
      return;
    case "token_revoked":
      for (const mine of clients.values()) {
        for (const client of [...mine])
          if (client.viewer.tokenId === signal.tokenId) client.close();
      }
      return;
    case "announcement": {
      const announcement = await ctx.storage.announcements.get(signal.announcementId);
      // One scheduled for later is told when it is edited once active (or read by the apps).
      if (!announcement || !isActive(announcement, ctx.clock.now())) return;
      const urls = urlContext(ctx);
      return eachViewer(clients, async (viewerId, specs) => {
        if (![...specs.values()].some((spec) => spec.name === "user")) return [];
        const [view] = await loadAnnouncementViews(ctx, [announcement], viewerId);
        if (!view) return [];
        const payload = JSON.stringify(serializeAnnouncement(view, urls));
        return onUserStreams(specs, "announcement", payload);
      });
    }
    case "announcement.delete":
      return eachViewer(clients, async (_viewerId, specs) =>
        onUserStreams(specs, "announcement.delete", signal.announcementId),
      );
    case "announcement.reaction": {
      const { announcementId, name } = signal;
      const reactions = await ctx.storage.announcementReactions.listByAnnouncement(announcementId);
      const count = reactions.filter((r) => r.name === name).length;
      const payload = JSON.stringify({ name, count, announcement_id: announcementId });
      return eachViewer(clients, async (_viewerId, specs) =>
        onUserStreams(specs, "announcement.reaction", payload),
      );
    }
  }
}

/** The event on every `user` subscription among `specs`. */
function onUserStreams(specs: Specs, event: string, payload: string | undefined): Outgoing[] {
  return [...specs]
    .filter(([, spec]) => spec.name === "user")
    .map(([key]) => ({ key, event, payload }));
}

function only(clients: ClientsByViewer, accountId: string): ClientsByViewer {
  const mine = clients.get(accountId);
  return mine ? new Map([[accountId, mine]]) : new Map();
}

/**
 * Works out each viewer's events once, from the union of their subscriptions, and sends each
 * to every one of their connections subscribed to its stream; a chunk of viewers at a time.
 */
async function eachViewer(
  clients: ClientsByViewer,
  events: (viewerId: string, specs: Specs) => Promise<Outgoing[]>,
): Promise<void> {
  await deliverInChunks(
    [...clients],
    ([viewerId, mine]) => {
      const specs = specsOf(mine);
      return specs.size === 0 ? [] : events(viewerId, specs);
    },
    ([, mine]) => mine,
  );
}

function notificationEvents(specs: Specs, event: string, payload: string): Outgoing[] {
  return [...specs]
    .filter(([, spec]) => spec.name === "user" || spec.name === "user:notification")
    .map(([key]) => ({ key, event, payload }));
}

// What one signal becomes on the connected streams. Each signal is rendered per distinct viewer
// (the same JSON the REST API gives that viewer: their favourited, bookmarked, filtered…), once
// per viewer and filter context however many connections and subscriptions they hold, then
// sent to every subscription that takes it.

import type { FilterContext } from "../../domain/filter.ts";
import type { StreamSignal } from "../../domain/stream-signal.ts";
import { serializeAnnouncement } from "../../serialization/mastodon/announcement.ts";
import { isActive } from "../../services/announcements/schedule.ts";
import type { ServiceContext } from "../../services/context.ts";
import { getNotification } from "../../services/notifications/single-notification.ts";
import {
  conversationOf,
  homeShows,
  listShows,
  mayHaveShown,
  publicShows,
  resolveSignalled,
} from "../../services/streaming/audience.ts";
import {
  isPublicStream,
  publicStreamTakes,
  type StreamSpec,
} from "../../services/streaming/streams.ts";
import type { ResolvedEntry } from "../../services/timelines/resolve-entries.ts";
import { loadAnnouncementViews } from "../../views/announcement-view.ts";
import { urlContext } from "../mastodon/account-json.ts";
import { renderConversation } from "../mastodon/conversation-json.ts";
import { renderNotifications } from "../mastodon/notification-json.ts";
import { renderResolvedStatusText } from "../mastodon/status-json.ts";
import { readsNotifications, type StreamClient } from "./client.ts";

/** The connected clients of each viewer (account id). */
export type ClientsByViewer = ReadonlyMap<string, ReadonlySet<StreamClient>>;

/** One event for one subscription (by streamKey) of the viewer. */
interface Outgoing {
  key: string;
  event: string;
  payload: string | undefined;
}

type Specs = ReadonlyMap<string, StreamSpec>;

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
      return eachViewer(clients, (viewerId, specs) =>
        statusEvents(ctx, viewerId, specs, item, signal.event),
      );
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

/** Events of the notifications family, which the user stream carries for some tokens only. */
const NOTIFICATION_EVENTS: ReadonlySet<string> = new Set(["notification", "notifications_merged"]);

/**
 * Works out each viewer's events once, from the union of their subscriptions, and sends each
 * to every one of their connections subscribed to its stream.
 */
async function eachViewer(
  clients: ClientsByViewer,
  events: (viewerId: string, specs: Specs) => Promise<Outgoing[]>,
): Promise<void> {
  await Promise.all(
    [...clients].map(async ([viewerId, mine]) => {
      const specs = new Map<string, StreamSpec>();
      for (const client of mine) for (const [key, spec] of client.streams) specs.set(key, spec);
      if (specs.size === 0) return;
      const out = await events(viewerId, specs);
      for (const { key, event, payload } of out) {
        for (const client of mine) {
          const spec = client.streams.get(key);
          if (!spec) continue;
          if (spec.name === "user" && NOTIFICATION_EVENTS.has(event)) {
            if (!readsNotifications(client.viewer)) continue;
          }
          client.send(spec, event, payload);
        }
      }
    }),
  );
}

function notificationEvents(specs: Specs, event: string, payload: string): Outgoing[] {
  return [...specs]
    .filter(([, spec]) => spec.name === "user" || spec.name === "user:notification")
    .map(([key]) => ({ key, event, payload }));
}

/** Which subscriptions of the viewer take a new or edited status, and in which filter context. */
async function statusEvents(
  ctx: ServiceContext,
  viewerId: string,
  specs: Specs,
  item: ResolvedEntry,
  event: "update" | "status.update",
): Promise<Outgoing[]> {
  const contexts: [string, FilterContext][] = [];
  const direct: string[] = [];
  let shownPublicly: Promise<boolean> | undefined;
  let shownAtHome: Promise<boolean> | undefined;
  for (const [key, spec] of specs) {
    if (isPublicStream(spec.name)) {
      if (!publicStreamTakes(spec, item.status)) continue;
      shownPublicly ??= publicShows(ctx, viewerId, item);
      if (await shownPublicly) contexts.push([key, "public"]);
    } else if (spec.name === "user") {
      shownAtHome ??= homeShows(ctx, viewerId, item);
      if (await shownAtHome) contexts.push([key, "home"]);
    } else if (spec.name === "list" && spec.list !== undefined) {
      if (await listShows(ctx, viewerId, spec.list, item)) contexts.push([key, "home"]);
    } else if (spec.name === "direct" && event === "update") {
      direct.push(key);
    }
  }
  const out: Outgoing[] = [];
  const rendered = new Map<FilterContext, Promise<string | undefined>>();
  for (const [key, filterContext] of contexts) {
    let text = rendered.get(filterContext);
    if (!text) {
      text = renderResolvedStatusText(ctx, item, viewerId, filterContext);
      rendered.set(filterContext, text);
    }
    const payload = await text;
    if (payload !== undefined) out.push({ key, event, payload });
  }
  if (direct.length > 0) {
    // Mastodon's direct stream carries the conversation the message updated, not the status.
    const conversation = await conversationOf(ctx, viewerId, item.status);
    if (conversation) {
      const payload = JSON.stringify(await renderConversation(ctx, conversation, viewerId));
      for (const key of direct) out.push({ key, event: "conversation", payload });
    }
  }
  return out;
}

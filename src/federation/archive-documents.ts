// The ActivityPub documents of an account archive (services/archives/), made exactly as this
// server serves them: the actor through the actor dispatcher, the statuses' Create and Announce
// activities through the outbox's serializers, fed from views.

import type { Federation } from "@fedify/fedify";
import type { ArchiveDocuments, JsonObject } from "../services/archives/documents.ts";
import type { ServiceContext } from "../services/context.ts";
import { loadStatusViews } from "../views/status-view.ts";
import { postActivitiesOf } from "./status-documents.ts";

export function createArchiveDocuments(
  federation: Federation<ServiceContext>,
  ctx: ServiceContext,
): ArchiveDocuments {
  return {
    async actor(account) {
      const fctx = federation.createContext(new Request(ctx.settings.publicUrl), ctx);
      const actor = await fctx.getActor(account.username);
      if (!actor) throw new Error(`No actor for ${account.username}`);
      return (await actor.toJsonLd()) as JsonObject;
    },
    async activities(owner, statuses) {
      const views = await loadStatusViews(ctx, statuses, owner.id);
      const activities = await postActivitiesOf(ctx, views);
      return Promise.all(activities.map(async (a) => (await a.toJsonLd()) as JsonObject));
    },
  };
}

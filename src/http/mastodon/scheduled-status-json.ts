// Scheduled statuses as Mastodon JSON, with the media each one holds loaded in one batch.

import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import {
  type ScheduledStatusJson,
  serializeScheduledStatus,
} from "../../serialization/mastodon/scheduled-status.ts";
import type { ServiceContext } from "../../services/context.ts";
import { loadHeldMedia } from "../../views/scheduled-status-media.ts";
import { urlContext } from "./account-json.ts";

export async function renderScheduledStatuses(
  ctx: ServiceContext,
  scheduled: readonly ScheduledStatus[],
): Promise<ScheduledStatusJson[]> {
  const media = await loadHeldMedia(ctx, scheduled);
  const urls = urlContext(ctx);
  return scheduled.map((s) => serializeScheduledStatus(s, media, urls));
}

export async function renderScheduledStatus(
  ctx: ServiceContext,
  scheduled: ScheduledStatus,
): Promise<ScheduledStatusJson> {
  const [json] = await renderScheduledStatuses(ctx, [scheduled]);
  return json as ScheduledStatusJson;
}

// The URL context ActivityPub serializers need, from the service context's settings and host.

import type { ApUrls } from "../serialization/activitypub/urls.ts";
import type { ServiceContext } from "../services/context.ts";

export function apUrls(ctx: ServiceContext): ApUrls {
  return { publicUrl: ctx.settings.publicUrl, fileUrl: (key) => ctx.files.url(key) };
}

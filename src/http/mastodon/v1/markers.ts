// GET /api/v1/markers and POST /api/v1/markers: where the user stopped reading the home and
// notifications timelines, shared between their apps. Both answer an object keyed by timeline.

import type { Hono } from "hono";
import { z } from "zod";
import { serializeMarkerMap } from "../../../serialization/mastodon/marker.ts";
import { getMarkers } from "../../../services/markers/get-markers.ts";
import { type MarkerUpdate, saveMarkers } from "../../../services/markers/save-markers.ts";
import { isMarkerTimeline } from "../../../services/markers/timelines.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readParams, readValidParams, validate } from "../../params.ts";
import { idParam, listParam } from "../../schemas.ts";

const getSchema = z.object({ timeline: listParam(z.string()).optional() });

// `home[last_read_id]=…`: a timeline given without a usable id is a validation failure (422),
// as Mastodon's presence validation on last_read_id reports it.
const timelineSchema = z.object(
  {
    last_read_id: z
      .unknown()
      .refine((v) => v !== undefined && v !== null && v !== "", "can't be blank")
      .pipe(idParam),
  },
  { error: "must be an object with last_read_id" },
);

const postSchema = z.object({
  home: timelineSchema.optional(),
  notifications: timelineSchema.optional(),
});

export function markersRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v1/markers", access({ scopes: ["read:statuses"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, getSchema);
    const markers = await getMarkers(ctx, viewer.account.id, params.timeline ?? []);
    return c.json(serializeMarkerMap(markers));
  });

  app.post("/api/v1/markers", access({ scopes: ["write:statuses"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readParams(c);
    const parsed = validate(postSchema, params);
    // Anything besides the known timelines is ignored, as in Mastodon; the answer keeps the
    // order in which the client named the timelines.
    const updates: MarkerUpdate[] = [];
    for (const key of Object.keys(params)) {
      if (!isMarkerTimeline(key)) continue;
      const given = parsed[key];
      if (given) updates.push({ timeline: key, lastReadId: given.last_read_id });
    }
    const markers = await saveMarkers(ctx, viewer.account.id, updates);
    return c.json(serializeMarkerMap(markers));
  });
}

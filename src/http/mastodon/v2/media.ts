// POST /api/v2/media: images are processed before answering (200, as Mastodon does since 4.0);
// video and audio go to the processing queue and the answer is 202 with `url: null` until
// GET /api/v1/media/:id says 200.

import type { Hono } from "hono";
import { uploadMedia } from "../../../services/media/upload-media.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { renderMedia } from "../media-json.ts";
import { uploadInput } from "../v1/media.ts";

export function mediaV2Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.post("/api/v2/media", access({ scopes: ["write:media"], user: true }), async (c) => {
    const media = await uploadMedia(ctx, await uploadInput(c, "images-now"));
    return c.json(renderMedia(ctx, media), media.state === "processing" ? 202 : 200);
  });
}

// Media attachments, v1: upload and wait for processing (POST, and PUT as the specification
// also names it), poll an upload (206 while processing, 200 once ready), change its description,
// focal point or preview, and delete an unused one. POST /api/v2/media is in v2/media.ts.

import type { Context, Hono } from "hono";
import { z } from "zod";
import { deleteMedia } from "../../../services/media/delete-media.ts";
import { getOwnMedia } from "../../../services/media/own-media.ts";
import { updateMedia } from "../../../services/media/update-media.ts";
import { uploadMedia } from "../../../services/media/upload-media.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { renderMedia } from "../media-json.ts";
import { bytesOf, fileParam, mediaText } from "../media-params.ts";

const MEDIA = "/api/v1/media/:id{[0-9]+}";

export const uploadSchema = z.object({
  file: fileParam,
  thumbnail: fileParam,
  description: mediaText,
  focus: mediaText,
});

const updateSchema = uploadSchema.omit({ file: true });

/** Reads an upload request into the service's input. */
export async function uploadInput(c: Context<HttpEnv>, processing: "now" | "images-now") {
  const viewer = requireViewer(c);
  const params = await readValidParams(c, uploadSchema);
  return {
    accountId: viewer.account.id,
    file: await bytesOf(params.file),
    thumbnail: await bytesOf(params.thumbnail),
    description: params.description,
    focus: params.focus,
    processing,
  };
}

export function mediaV1Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const writeMedia = access({ scopes: ["write:media"], user: true });
  const statusOf = (state: string) => (state === "processing" ? 206 : 200);

  const upload = async (c: Context<HttpEnv>) => {
    const media = await uploadMedia(ctx, await uploadInput(c, "now"));
    return c.json(renderMedia(ctx, media), 200);
  };
  app.post("/api/v1/media", writeMedia, upload);
  app.put("/api/v1/media", writeMedia, upload);

  app.get(MEDIA, writeMedia, async (c) => {
    const viewer = requireViewer(c);
    const media = await getOwnMedia(ctx, viewer.account.id, c.req.param("id"));
    return c.json(renderMedia(ctx, media), statusOf(media.state));
  });

  app.on(UPDATE_METHODS, MEDIA, writeMedia, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, updateSchema);
    const media = await updateMedia(ctx, viewer.account.id, c.req.param("id"), {
      description: params.description,
      focus: params.focus,
      thumbnail: await bytesOf(params.thumbnail),
    });
    return c.json(renderMedia(ctx, media), statusOf(media.state));
  });

  app.delete(MEDIA, writeMedia, async (c) => {
    const viewer = requireViewer(c);
    await deleteMedia(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });
}

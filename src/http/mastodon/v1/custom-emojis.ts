// GET /api/v1/custom_emojis: the instance's custom emojis for the picker. Public, as in
// Mastodon: clients fetch it before anyone signs in.

import type { Hono } from "hono";
import { serializeCustomEmojis } from "../../../serialization/mastodon/custom-emoji.ts";
import { listPickerEmojis } from "../../../services/emojis/list-emojis.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { urlContext } from "../account-json.ts";

export function customEmojiRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;
  app.get("/api/v1/custom_emojis", async (c) => {
    return c.json(serializeCustomEmojis(await listPickerEmojis(ctx), urlContext(ctx)));
  });
}

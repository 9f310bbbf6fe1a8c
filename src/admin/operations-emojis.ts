// Admin operations on custom emojis. The image travels inside the request as base64, read by
// the command (which the operator runs as themselves): the server never opens a path it is
// handed, and the request stays bounded by the emoji size limit.

import { z } from "zod";
import { EMOJI_UPLOAD_BYTES } from "../media/emoji-limits.ts";
import type { ServiceContext } from "../services/context.ts";
import { addCustomEmoji } from "../services/emojis/add-emoji.ts";
import { listLocalEmojis } from "../services/emojis/list-emojis.ts";
import { removeCustomEmoji } from "../services/emojis/remove-emoji.ts";
import type { Operation } from "./operations.ts";

const MAX_BASE64_LENGTH = Math.ceil(EMOJI_UPLOAD_BYTES / 3) * 4;

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export const EMOJI_OPERATIONS = {
  "emoji.add": op({
    args: z.object({
      shortcode: z.string(),
      image: z.base64().max(MAX_BASE64_LENGTH),
      category: z.string().nullable().default(null),
    }),
    async run(ctx: ServiceContext, args) {
      const emoji = await addCustomEmoji(ctx, {
        shortcode: args.shortcode,
        image: new Uint8Array(Buffer.from(args.image, "base64")),
        category: args.category,
      });
      return { id: emoji.id, shortcode: emoji.shortcode, url: ctx.files.url(emoji.imageKey) };
    },
  }),
  "emoji.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return (await listLocalEmojis(ctx)).map((emoji) => ({
        shortcode: emoji.shortcode,
        category: emoji.category,
        visibleInPicker: emoji.visibleInPicker,
        url: ctx.files.url(emoji.imageKey),
      }));
    },
  }),
  "emoji.remove": op({
    args: z.object({ shortcode: z.string() }),
    async run(ctx: ServiceContext, args) {
      const emoji = await removeCustomEmoji(ctx, args.shortcode);
      return { shortcode: emoji.shortcode };
    },
  }),
};

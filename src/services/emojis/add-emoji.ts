// Adds a local custom emoji from an image file (the operator's `wren emoji add`). The shortcode
// follows Mastodon's rule (letters, digits and `_`, at least two) and is unique among local
// emojis, case-sensitively as Mastodon matches them; the image is checked by its content.

import { randomBytes } from "node:crypto";
import { type CustomEmoji, SHORTCODE_PATTERN } from "../../domain/custom-emoji.ts";
import { unprocessable } from "../../domain/errors.ts";
import { processEmojiImage } from "../../media/emoji-images.ts";
import type { ServiceContext } from "../context.ts";

/** Longest shortcode and category name accepted (Mastodon's string columns hold 255). */
export const EMOJI_TEXT_MAX_LENGTH = 255;

export interface AddEmojiInput {
  shortcode: string;
  image: Uint8Array;
  category?: string | null;
  visibleInPicker?: boolean;
}

function checkShortcode(shortcode: string): void {
  if (shortcode.length < 2) {
    throw unprocessable("Validation failed: Shortcode is too short (minimum is 2 characters)");
  }
  if (shortcode.length > EMOJI_TEXT_MAX_LENGTH) {
    throw unprocessable(
      `Validation failed: Shortcode is too long (maximum is ${EMOJI_TEXT_MAX_LENGTH} characters)`,
    );
  }
  if (!SHORTCODE_PATTERN.test(shortcode)) {
    throw unprocessable("Validation failed: Shortcode is invalid");
  }
}

function normalizeCategory(category: string | null | undefined): string | null {
  const name = category?.trim() ?? "";
  if (name.length > EMOJI_TEXT_MAX_LENGTH) {
    throw unprocessable(
      `Validation failed: Category is too long (maximum is ${EMOJI_TEXT_MAX_LENGTH} characters)`,
    );
  }
  return name === "" ? null : name;
}

export async function addCustomEmoji(
  ctx: ServiceContext,
  input: AddEmojiInput,
): Promise<CustomEmoji> {
  checkShortcode(input.shortcode);
  const category = normalizeCategory(input.category);
  const image = await processEmojiImage(input.image);

  // One check-then-write per shortcode at a time, so two adds of one name cannot both win.
  return ctx.storage.coordination.withLock(`emoji:${input.shortcode}`, async () => {
    const { storage, files } = ctx;
    if (await storage.customEmojis.findByShortcode(input.shortcode, null)) {
      throw unprocessable("Validation failed: Shortcode has already been taken");
    }
    const id = ctx.ids.next();
    const name = randomBytes(8).toString("hex");
    const imageKey = `emojis/${id}/${name}.${image.original.extension}`;
    const staticKey = `emojis/${id}/${name}-static.${image.still.extension}`;
    await files.put(imageKey, image.original.bytes, image.original.contentType);
    try {
      await files.put(staticKey, image.still.bytes, image.still.contentType);
      const now = ctx.clock.now().toISOString();
      const emoji: CustomEmoji = {
        id,
        shortcode: input.shortcode,
        domain: null,
        imageKey,
        staticKey,
        category,
        visibleInPicker: input.visibleInPicker ?? true,
        createdAt: now,
        updatedAt: now,
      };
      await storage.customEmojis.put(emoji);
      return emoji;
    } catch (error) {
      // No record points at the files: do not leave them behind.
      await files.delete(imageKey).catch(() => undefined);
      await files.delete(staticKey).catch(() => undefined);
      throw error;
    }
  });
}

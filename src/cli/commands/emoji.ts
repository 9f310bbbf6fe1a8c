// `wren emoji add|list|remove`: the instance's custom emojis. The command reads the image file
// itself (refusing anything but a regular file, and reading no more than the size limit allows)
// and sends its bytes, so a running server never opens a path given on a command line.

import { EMOJI_UPLOAD_BYTES } from "../../media/emoji-limits.ts";
import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { readBounded } from "../read-bounded.ts";
import { commandConfig } from "../setup.ts";

export const emojiAdd: Command = {
  path: ["emoji", "add"],
  summary: "Add a custom emoji from a PNG, GIF or WebP image (at most 256 KB).",
  positionals: ["SHORTCODE", "FILE"],
  options: {
    category: {
      type: "string",
      valueName: "CATEGORY",
      description: "Picker category to file the emoji under",
    },
  },
  details: `Example:
  wren emoji add blobcat ./blobcat.png --category Blobs
Posts, profiles and announcements then show :blobcat: as the image.`,
  async run({ positionals, options }) {
    const config = await commandConfig();
    // One byte beyond the limit is read, so the server can report the file as too large.
    const bytes = await readBounded(
      positionals.FILE as string,
      EMOJI_UPLOAD_BYTES,
      "wren emoji add --help",
    );
    const result = (await operate(config, "emoji.add", {
      shortcode: positionals.SHORTCODE,
      image: bytes.toString("base64"),
      category: typeof options.category === "string" ? options.category : null,
    })) as { shortcode: string; url: string };
    process.stdout.write(`${result.url}\n`);
    process.stderr.write(`Added the custom emoji :${result.shortcode}:.\n`);
    return EXIT_OK;
  },
};

export const emojiList: Command = {
  path: ["emoji", "list"],
  summary: "List the custom emojis: shortcode, category and image URL, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const emojis = (await operate(config, "emoji.list", {})) as {
      shortcode: string;
      category: string | null;
      url: string;
    }[];
    for (const emoji of emojis) {
      process.stdout.write(`${emoji.shortcode}\t${emoji.category ?? ""}\t${emoji.url}\n`);
    }
    return EXIT_OK;
  },
};

export const emojiRemove: Command = {
  path: ["emoji", "remove"],
  summary: "Remove a custom emoji and its image files.",
  positionals: ["SHORTCODE"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    const result = (await operate(config, "emoji.remove", {
      shortcode: positionals.SHORTCODE,
    })) as { shortcode: string };
    process.stderr.write(`Removed the custom emoji :${result.shortcode}:.\n`);
    return EXIT_OK;
  },
};

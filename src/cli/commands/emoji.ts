// `wren emoji add|list|remove`: the instance's custom emojis. The command reads the image file
// itself (refusing anything but a regular file, and reading no more than the size limit allows)
// and sends its bytes, so a running server never opens a path given on a command line.

import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { EMOJI_UPLOAD_BYTES } from "../../media/emoji-limits.ts";
import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

/** At most `limit` bytes of a regular file (a FIFO or a device could stream forever). */
async function readBounded(path: string, limit: number): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Non-blocking, so opening a FIFO returns at once (to be refused below) instead of waiting
    // for a writer; regular files read as usual.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UsageError(`No such file: ${path}`, "wren emoji add --help");
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      throw new UsageError(`Not a regular file: ${path}`, "wren emoji add --help");
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

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
    const bytes = await readBounded(positionals.FILE as string, EMOJI_UPLOAD_BYTES);
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

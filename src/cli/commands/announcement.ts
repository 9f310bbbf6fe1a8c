// `wren announcement create|list|delete`: instance-wide announcements, shown to every signed-in
// user by Mastodon apps (with reactions and a read state per user).

import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

export const announcementCreate: Command = {
  path: ["announcement", "create"],
  summary: "Publish an announcement and print its id.",
  positionals: ["TEXT"],
  options: {
    "starts-at": {
      type: "string",
      valueName: "TIME",
      description: "Start of the announced event (ISO 8601); needs --ends-at",
    },
    "ends-at": {
      type: "string",
      valueName: "TIME",
      description: "End (ISO 8601); the announcement is hidden from then on",
    },
    "all-day": { type: "boolean", description: "The range is whole days, not times" },
  },
  details: `The text is rendered like a post: links, @mentions, #hashtags and :custom_emoji:.
With a time range, users see the announcement from --starts-at until --ends-at.

Example:
  wren announcement create "Maintenance tonight, back in an hour" \\
    --starts-at 2025-06-01T20:00:00Z --ends-at 2025-06-01T21:00:00Z`,
  async run({ positionals, options }) {
    const config = await commandConfig();
    const result = (await operate(config, "announcement.create", {
      text: positionals.TEXT,
      startsAt: typeof options["starts-at"] === "string" ? options["starts-at"] : null,
      endsAt: typeof options["ends-at"] === "string" ? options["ends-at"] : null,
      allDay: options["all-day"] === true,
    })) as { id: string };
    process.stdout.write(`${result.id}\n`);
    return EXIT_OK;
  },
};

interface ListedAnnouncement {
  id: string;
  text: string;
  startsAt: string | null;
  endsAt: string | null;
  state: string;
}

/** The first line of the text, short enough for a terminal row. */
function summary(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export const announcementList: Command = {
  path: ["announcement", "list"],
  summary: "List announcements, newest first: id, state, start, end and text, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const items = (await operate(config, "announcement.list", {})) as ListedAnnouncement[];
    for (const a of items) {
      const row = [a.id, a.state, a.startsAt ?? "-", a.endsAt ?? "-", summary(a.text)];
      process.stdout.write(`${row.join("\t")}\n`);
    }
    return EXIT_OK;
  },
};

export const announcementDelete: Command = {
  path: ["announcement", "delete"],
  summary: "Delete an announcement, with its reactions.",
  positionals: ["ID"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    await operate(config, "announcement.delete", { id: positionals.ID });
    process.stderr.write(`Deleted the announcement ${positionals.ID}.\n`);
    return EXIT_OK;
  },
};
